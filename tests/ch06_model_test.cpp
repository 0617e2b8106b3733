// Chapter 06's registration model and the PCIe rate, on numbers worked by hand (no GPU needed).
#include <doctest/doctest.h>

#include "registration_model.hpp"

TEST_CASE("registration pays off after registration / saving-per-copy copies") {
  // 10 ms to register and unregister; each copy saves 40 - 5 = 35 ms: the first copy already pays.
  CHECK(ch06::copies_to_break_even({10.0, 40.0, 5.0}) == 1);
  // 100 ms to register, 10 ms saved per copy: after 10 copies both take 100 ms more or less;
  // registering is ahead from the 11th (100 + 11 x 5 = 155 < 11 x 15 = 165).
  const ch06::RegistrationCosts costs{100.0, 15.0, 5.0};
  CHECK(ch06::copies_to_break_even(costs) == 11);
  CHECK(ch06::registered_total_ms(costs, 11) < ch06::pageable_total_ms(costs, 11));
  CHECK_FALSE(ch06::registered_total_ms(costs, 10) < ch06::pageable_total_ms(costs, 10));
  CHECK(ch06::registered_total_ms(costs, 10) == doctest::Approx(150.0));
  CHECK(ch06::pageable_total_ms(costs, 10) == doctest::Approx(150.0));
}

TEST_CASE("registration never pays when a registered copy is not faster") {
  CHECK(ch06::copies_to_break_even({1.0, 5.0, 5.0}) == 0);
  CHECK(ch06::copies_to_break_even({1.0, 5.0, 6.0}) == 0);
  CHECK(ch06::copies_to_break_even({0.0, 5.0, 4.0}) == 1);  // free registration: the first copy wins
}

TEST_CASE("PCIe theoretical rates per direction") {
  CHECK(ch06::pcie_gigabytes_per_second(5, 16) == doctest::Approx(63.015).epsilon(1e-4));  // 32 GT/s x 128/130 / 8 x 16
  CHECK(ch06::pcie_gigabytes_per_second(4, 16) == doctest::Approx(31.508).epsilon(1e-4));
  CHECK(ch06::pcie_gigabytes_per_second(3, 8) == doctest::Approx(7.877).epsilon(1e-3));
  CHECK(ch06::pcie_gigabytes_per_second(2, 16) == doctest::Approx(8.0));  // 5 GT/s x 8/10 / 8 x 16
  CHECK(ch06::pcie_gigabytes_per_second(1, 1) == doctest::Approx(0.25));
  CHECK(ch06::pcie_gigabytes_per_second(0, 16) == 0.0);  // unknown (NVML missing)
  CHECK(ch06::pcie_gigabytes_per_second(7, 16) == 0.0);
}
