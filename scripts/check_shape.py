#!/usr/bin/env python3
"""The chapter shape, checked (docs/chapter-shape.md).

For every chapters/NN_name/ folder:
  - main.cu has at most 130 lines and computes nothing: no std::to_string,
    getenv, snprintf, background sentence or memory check of its own (the
    memory need comes from the options file, through chapter.require_memory);
  - no function in the checks or tables (checks*.cpp, tables*.cpp) is longer than
    60 lines;
  - a chapter's files fall in three rooms (docs/chapter-shape.md):
      lesson:  *.cu and *.cuh other than main.cu, and data.hpp / *_data.hpp, the
               plain structs the experiments return (what they measured);
      report:  tables*.cpp / tables*.hpp, the pure functions that turn that data into
               the printed tables and the JSON; they judge nothing, so a tables file
               may not name Finding, correctness_check, timing_check, observation or
               skipped;
      verdict: every other plain C++ file but the options files: the checks, their
               helpers, child-output parsers, models and statistics the checks use;
  - the lesson is the biggest room: at least LESSON_RATIO (1.5) times the code
    lines of the verdict room, and no smaller than the report room. Code lines: no
    blank line, no comment.
    A chapter below the ratio today is listed in DEBT with the ratio it had when
    the rule came (2026-12-01); it may not fall below that until it reaches 1.5.

Usage: scripts/check_shape.py [ROOT]      exit 0 when every chapter holds, 1 otherwise
       scripts/check_shape.py --self-test  shows each rule failing on a made-up chapter
"""
import pathlib
import re
import sys
import tempfile

MAX_MAIN_LINES = 130
LESSON_RATIO = 1.5
# Chapters below LESSON_RATIO, with their ratio after the first pass of the rule
# (2026-12-01; 01, 09, 11 and 12 reached 1.5 then): a floor each may not fall below. Remove a line when the chapter
# reaches LESSON_RATIO (the check then holds it there).
DEBT = {
}
MAX_FINDINGS_FUNCTION_LINES = 60
# What main.cu must not do: (pattern, what it is).
MAIN_FORBIDDEN = [
    (re.compile(r"std::to_string\s*\("), "formats a number (std::to_string)"),
    (re.compile(r"\b(std::)?getenv\s*\("), "reads the environment (getenv)"),
    (re.compile(r"\bs?n?printf\s*\("), "formats text (printf)"),
    (re.compile(r"\.background\s*\(\s*\""), "writes a background sentence"),
    (re.compile(r"\b(check_memory\w*|check_vectors_fit|memory_problem|require_fits_machine|available_host_memory_bytes)\s*\("),
     "checks memory itself (use chapter.require_memory with the options file's memory_need)"),
]
FUNCTION_START = re.compile(r"^[A-Za-z_][\w:<>,\s\*&]*\s[\*&]?[\w:~]+\s*\([^;]*$")


def lines_of(path):
    return path.read_text(encoding="utf-8").splitlines()


def strip_comment(line):
    return line.split("//", 1)[0]


def code_lines(path):
    """Lines of code: no blank line, no // line, nothing inside /* ... */."""
    count = 0
    in_block = False
    for line in lines_of(path):
        text = line.strip()
        if in_block:
            if "*/" not in text:
                continue
            in_block = False
            text = text.split("*/", 1)[1].strip()
        if text.startswith("/*"):
            in_block = "*/" not in text
            continue
        if text and not text.startswith("//"):
            count += 1
    return count


TABLES_FORBIDDEN = re.compile(r"(lab::Finding|\bFinding\s*>|\b(?:correctness_check|timing_check|named_observation|observation|skipped)\s*\()")


def room_of(path):
    """'lesson', 'report', 'verdict' or None (main.cu, options, anything else)."""
    name = path.name
    if path.suffix in (".cu", ".cuh"):
        return None if name == "main.cu" else "lesson"
    if path.suffix not in (".cpp", ".hpp") or name.startswith("options"):
        return None
    if name == "data.hpp" or name.endswith("_data.hpp"):
        return "lesson"
    if name.startswith("tables"):
        return "report"
    return "verdict"


def rooms(folder):
    """Code lines of each room of a chapter folder."""
    out = {"lesson": 0, "verdict": 0, "report": 0}
    for p in sorted(folder.iterdir()):
        room = room_of(p)
        if room:
            out[room] += code_lines(p)
    return out


def tables_problems(path):
    """A tables file that judges: each line naming a check or an observation."""
    problems = []
    for number, line in enumerate(lines_of(path), 1):
        code = strip_comment(line)
        match = TABLES_FORBIDDEN.search(code)
        if match:
            problems.append(f"{path}:{number}: a tables file judges nothing ({match.group(1)}): move it to the checks")
    return problems


def main_problems(main):
    problems = []
    text = lines_of(main)
    if len(text) > MAX_MAIN_LINES:
        problems.append(f"{main}: {len(text)} lines, more than {MAX_MAIN_LINES}")
    for number, line in enumerate(text, 1):
        code = strip_comment(line)
        for pattern, what in MAIN_FORBIDDEN:
            if pattern.search(code):
                problems.append(f"{main}:{number}: main {what}")
    return problems


def long_functions(source):
    """(name, first line, length) of each top-level function longer than the limit."""
    found = []
    text = lines_of(source)
    start = None
    for number, line in enumerate(text, 1):
        if start is None:
            if FUNCTION_START.match(line) and not line.startswith(("namespace", "struct", "class", "using", "enum")):
                start = (number, line.split("(")[0].split()[-1])
        elif line.startswith("}"):
            length = number - start[0] + 1
            if length > MAX_FINDINGS_FUNCTION_LINES:
                found.append((start[1], start[0], length))
            start = None
        elif line and not line[0].isspace() and not line.startswith(("#", "//", ")", ":")) and "{" not in line \
                and not line.rstrip().endswith((",", "(")):
            start = None  # a declaration, not a definition
    return found


def chapter_problems(folder):
    problems = []
    main = folder / "main.cu"
    if main.exists():
        problems += main_problems(main)
    for prefix in ("checks", "tables"):
        for source in sorted(folder.glob(prefix + "*.cpp")):
            for name, first, length in long_functions(source):
                problems.append(f"{source}:{first}: {name} is {length} lines, more than {MAX_FINDINGS_FUNCTION_LINES}")
    for tables in sorted(folder.glob("tables*.[ch]pp")):
        problems += tables_problems(tables)
    room = rooms(folder)
    lesson, verdicts = room["lesson"], room["verdict"]
    floor = min(LESSON_RATIO, DEBT.get(folder.name, LESSON_RATIO))
    if verdicts and lesson < floor * verdicts:
        problems.append(f"{folder}: lesson {lesson} code lines, verdict side {verdicts}: {lesson / verdicts:.2f}x, "
                        f"below {floor:.2f}x: the lesson must be the biggest room")
    if lesson < room["report"]:
        problems.append(f"{folder}: lesson {lesson} code lines, tables {room['report']}: "
                        "the lesson must be the biggest room")
    return problems


def ratios(root):
    """(chapter, lesson, verdict, report) code lines of every chapter."""
    out = []
    for folder in sorted((root / "chapters").glob("[0-9][0-9]_*")):
        room = rooms(folder)
        out.append((folder.name, room["lesson"], room["verdict"], room["report"]))
    return out


def check(root):
    problems = []
    for folder in sorted((root / "chapters").glob("[0-9][0-9]_*")):
        if folder.is_dir():
            problems += chapter_problems(folder)
    return problems


def self_test():
    """Each rule must be able to fail: a made-up chapter that breaks it, and one that keeps it."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        folder = root / "chapters" / "01_made_up"
        folder.mkdir(parents=True)
        good_main = "int main() {\n  return 0;\n}\n"
        good_checks = "namespace ch {\n\nint short_one() {\n  return 1;\n}\n\n}  // namespace ch\n"
        (folder / "lesson.cu").write_text("int x;\n" * 30 + "// a comment is no code\n" * 100)
        cases = {
            "long main": ("// line\n" * 131, good_checks, "more than 130"),
            "main formats": ("auto t = std::to_string(3);\n", good_checks, "std::to_string"),
            "main reads env": ('auto e = std::getenv("X");\n', good_checks, "getenv"),
            "main background": ('report.background("a sentence", "src");\n', good_checks, "background"),
            "main memory": ("auto m = ch01::check_vectors_fit(a, b);\n", good_checks, "memory"),
            "long function": (good_main, "int long_one() {\n" + "  x();\n" * 60 + "}\n", "long_one is 62 lines"),
            "checks larger": (good_main, "int v;\n" * 21, "biggest room"),  # 30 < 1.5 x 21
        }
        split = {  # checks split by section: every file counts, every function is checked
            "split larger": ("int v;\n" * 11, "biggest room"),  # 10 + 11 verdict lines: 30 < 31.5
            "split long function": ("int long_two() {\n" + "  x();\n" * 60 + "}\n", "long_two is 62 lines"),
        }
        failures = 0
        for name, (main_text, checks_text, expected) in cases.items():
            (folder / "main.cu").write_text(main_text)
            (folder / "checks.cpp").write_text(checks_text)
            problems = check(root)
            if not any(expected in p for p in problems):
                print(f"self-test: '{name}' was not caught (wanted '{expected}'; got {problems})")
                failures += 1
        (folder / "main.cu").write_text(good_main)
        (folder / "checks.cpp").write_text("int v;\n" * 10 + "// comments do not count\n" * 50)
        for name, (part_text, expected) in split.items():
            (folder / "checks_part.cpp").write_text(part_text)
            problems = check(root)
            if not any(expected in p for p in problems):
                print(f"self-test: '{name}' was not caught (wanted '{expected}'; got {problems})")
                failures += 1
        (folder / "checks_part.cpp").unlink()
        extra = {  # a helper of the checks counts; options do not; a chapter in DEBT keeps its floor
            "helper counts": ("child_output.cpp", "int v;\n" * 11, "biggest room"),
            "block comment": ("background.hpp", "/*\n" + "int v;\n" * 40 + "*/\nint v;\n" * 11, "biggest room"),
        }
        for name, (file_name, text, expected) in extra.items():
            (folder / file_name).write_text(text)
            problems = check(root)
            if not any(expected in p for p in problems):
                print(f"self-test: '{name}' was not caught (wanted '{expected}'; got {problems})")
                failures += 1
            (folder / file_name).unlink()
        (folder / "options.cpp").write_text("int o;\n" * 100)
        if check(root):
            print(f"self-test: options counted as verdict code: {check(root)}")
            failures += 1
        (folder / "options.cpp").unlink()
        rooms_cases = {  # (file, text, expected problem or None)
            "tables are not verdict": ("tables.cpp", "int t;\n" * 25, None),
            "tables larger than the lesson": ("tables.cpp", "int t;\n" * 41, "tables 41"),
            "tables that judge": ("tables.cpp", "auto f = lab::timing_check(x);\n", "judges nothing"),
            "tables with a Finding": ("tables.hpp", "std::vector<lab::Finding> f();\n", "judges nothing"),
            "data is lesson": ("data.hpp", "int d;\n" * 10, None),
        }
        (folder / "checks.cpp").write_text("int v;\n" * 26)  # 30 lesson < 1.5 x 26: refused alone
        (folder / "data.hpp").write_text("int d;\n" * 10)  # 40 lesson >= 1.5 x 26
        for name, (file_name, text, expected) in rooms_cases.items():
            existing = (folder / file_name).read_text() if (folder / file_name).exists() else None
            (folder / file_name).write_text(text)
            problems = check(root)
            caught = any(expected in p for p in problems) if expected else not problems
            if not caught:
                print(f"self-test: '{name}' went wrong (wanted {expected!r}; got {problems})")
                failures += 1
            if existing is None:
                (folder / file_name).unlink()
            else:
                (folder / file_name).write_text(existing)
        (folder / "data.hpp").unlink()
        (folder / "checks.cpp").write_text("int v;\n" * 10 + "// comments do not count\n" * 50)
        DEBT["01_made_up"] = 1.2
        (folder / "checks_part.cpp").write_text("int v;\n" * 14)  # 30 / 24 = 1.25: above its floor
        if check(root):
            print(f"self-test: a chapter above its debt floor was refused: {check(root)}")
            failures += 1
        (folder / "checks_part.cpp").write_text("int v;\n" * 16)  # 30 / 26 = 1.15: below it
        if not any("below 1.20x" in p for p in check(root)):
            print("self-test: a chapter below its debt floor was not caught")
            failures += 1
        del DEBT["01_made_up"]
        (folder / "checks_part.cpp").unlink()
        (folder / "checks.cpp").write_text(good_checks)
        if check(root):
            print(f"self-test: a chapter in shape was refused: {check(root)}")
            failures += 1
    total = len(cases) + len(split) + len(extra) + 5 + 4
    print(f"self-test: {total - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    problems = check(root)
    for name, lesson, verdicts, report in ratios(root):
        ratio = lesson / verdicts if verdicts else float("inf")
        debt = f" (in debt: floor {DEBT[name]:.2f}x, goal {LESSON_RATIO}x)" if name in DEBT else ""
        print(f"{name}: lesson {lesson}, verdict side {verdicts}, tables {report} code lines: {ratio:.2f}x{debt}")
    for p in problems:
        print(p)
    print(f"chapter shape: {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)
