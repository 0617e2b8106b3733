/* CUDA Async Lab: search the text of the site's pages.
 * Doxygen's own search box finds symbols and titles; this one finds the pages and
 * sections whose text holds every word typed. The index is window.LAB_SEARCH_INDEX,
 * written by scripts/site_search_index.py into lab-search-index.js after Doxygen has
 * run: [{p: page file, t: page title, s: [{a: heading anchor, h: heading, t: text}]}].
 * Every page made from Markdown loads both files (scripts/doxygen_md_filter.py).
 * A result's link carries the words (?lab-q=...); the page it opens marks them
 * (<mark class="lab-hit">) and shows the first one in the section the link named. */
(function () {
  "use strict";
  var MAX_RESULTS = 30;

  function excerpt(text, lower, word) {
    var at = lower.indexOf(word);
    var start = Math.max(0, at - 60);
    var end = Math.min(text.length, at + word.length + 80);
    return (start > 0 ? "\u2026" : "") + text.slice(start, end) + (end < text.length ? "\u2026" : "");
  }

  function search(pages, query) {
    var words = query.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 1; });
    var hits = [];
    if (!words.length) return hits;
    pages.forEach(function (page) {
      page.s.forEach(function (section) {
        var lower = section.lower || (section.lower = (section.h + " " + section.t).toLowerCase());
        var score = 0;
        for (var i = 0; i < words.length; ++i) {
          var count = lower.split(words[i]).length - 1;
          if (!count) return;
          score += count;
        }
        hits.push({page: page, section: section, score: score,
                   text: excerpt(section.h + " " + section.t, lower, words[0])});
      });
    });
    hits.sort(function (x, y) { return y.score - x.score; });
    return hits;
  }

  function show(list, status, hits, query) {
    list.textContent = "";
    hits.slice(0, MAX_RESULTS).forEach(function (hit) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = hit.page.p + "?lab-q=" + encodeURIComponent(query) + (hit.section.a ? "#" + hit.section.a : "");
      link.textContent = hit.page.t + (hit.section.h ? " \u203a " + hit.section.h : "");
      var text = document.createElement("div");
      text.className = "lab-search-excerpt";
      text.textContent = hit.text;
      item.appendChild(link);
      item.appendChild(text);
      list.appendChild(item);
    });
    status.textContent = hits.length ? hits.length + " section(s)" + (hits.length > MAX_RESULTS ?
        ", the first " + MAX_RESULTS + " shown" : "") : "no section holds every word";
  }

  // The words of the search that opened this page, marked in its text; the first one shown.
  function markHits(contents) {
    var match = /[?&]lab-q=([^&#]*)/.exec(window.location.search);
    if (!match) return;
    var query;
    try { query = decodeURIComponent(match[1]); } catch (e) { return; }  // a malformed link marks nothing
    var words = query.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 1; });
    if (!words.length) return;
    var walker = document.createTreeWalker(contents, NodeFilter.SHOW_TEXT, null);
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    var marks = [];
    nodes.forEach(function (node) {
      if (node.parentNode.closest("script, style, #lab-search")) return;
      var text = node.nodeValue, lower = text.toLowerCase(), at = -1, word = null;
      words.forEach(function (w) {
        var i = lower.indexOf(w);
        if (i >= 0 && (at < 0 || i < at)) { at = i; word = w; }
      });
      if (at < 0) return;
      var hit = node.splitText(at);
      hit.splitText(word.length);
      var mark = document.createElement("mark");
      mark.className = "lab-hit";
      hit.parentNode.replaceChild(mark, hit);
      mark.appendChild(hit);
      marks.push(mark);
    });
    // Show the first mark in the section the link named (its heading's anchor), else the first.
    var anchor = window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
    var shown = marks.filter(function (m) {
      return !anchor || (anchor.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING);
    })[0] || marks[0];
    if (shown) setTimeout(function () { shown.scrollIntoView({block: "center"}); }, 0);
  }

  function start() {
    var pages = window.LAB_SEARCH_INDEX;
    var contents = document.querySelector("div.contents");
    if (contents) markHits(contents);
    if (!pages || !contents || document.getElementById("lab-search")) return;
    var box = document.createElement("div");
    box.id = "lab-search";
    var input = document.createElement("input");
    input.type = "search";
    input.placeholder = "Search the chapters' text";
    input.setAttribute("aria-label", "Search the text of every page");
    var status = document.createElement("div");
    status.className = "lab-search-status";
    var list = document.createElement("ol");
    list.className = "lab-search-results";
    box.appendChild(input);
    box.appendChild(status);
    box.appendChild(list);
    contents.parentNode.insertBefore(box, contents);
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        if (input.value.trim().length < 2) {
          list.textContent = "";
          status.textContent = "";
          return;
        }
        show(list, status, search(pages, input.value), input.value.trim());
      }, 150);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
