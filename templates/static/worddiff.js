// Word diff for the compare page: the tokens of the Python differ (rule numbers whole,
// CJK by character), a longest-common-subsequence alignment, and runs of <del>/<ins>.
(function () {
  "use strict";
  var TOKEN = /\d+\.\d+[a-z]*|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+|\s+|[^\w\s]/g;

  function tokens(text) { return text.match(TOKEN) || []; }

  function diff(oldText, newText) {
    var a = tokens(oldText), b = tokens(newText);
    var start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    var endA = a.length, endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
    var n = endA - start, m = endB - start, i, j;
    var lcs = [];
    for (i = 0; i <= n; i++) { lcs.push(new Int32Array(m + 1)); }
    for (i = n - 1; i >= 0; i--) {
      for (j = m - 1; j >= 0; j--) {
        lcs[i][j] = a[start + i] === b[start + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    var pieces = [];
    function push(op, text) {
      var last = pieces[pieces.length - 1];
      if (last && last[0] === op) { last[1] += text; } else { pieces.push([op, text]); }
    }
    if (start) push(0, a.slice(0, start).join(""));
    i = 0; j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) { push(0, a[start + i]); i++; j++; }
      else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) { push(1, b[start + j]); j++; }
      else { push(-1, a[start + i]); i++; }
    }
    if (endA < a.length) push(0, a.slice(endA).join(""));
    return absorbSmallEqualities(pieces);
  }

  // As the Python differ does: a lone word or space between two edits joins them, so that
  // "its owner looks" -> "all players look" reads as one phrase, not three.
  function small(text) {
    return tokens(text).filter(function (t) { return /^[^\W_]/.test(t) || /[\u3040-\u9fff]/.test(t); }).length <= 1;
  }

  function absorbSmallEqualities(pieces) {
    var result = [], deleted = "", inserted = "";
    function flush() {
      if (deleted === inserted) { if (deleted) result.push([0, deleted]); }
      else {
        if (deleted) result.push([-1, deleted]);
        if (inserted) result.push([1, inserted]);
      }
      deleted = ""; inserted = "";
    }
    pieces.forEach(function (piece, index) {
      var between = index > 0 && index < pieces.length - 1 && (deleted || inserted);
      if (piece[0] === 0 && between && small(piece[1])) { deleted += piece[1]; inserted += piece[1]; return; }
      if (piece[0] === 0) { flush(); result.push(piece); }
      else if (piece[0] < 0) { deleted += piece[1]; }
      else { inserted += piece[1]; }
    });
    flush();
    return result;
  }

  function render(pieces, into) {
    pieces.forEach(function (piece) {
      var node = piece[0] === 0 ? document.createTextNode(piece[1]) : document.createElement(piece[0] > 0 ? "ins" : "del");
      if (piece[0] !== 0) node.textContent = piece[1];
      into.appendChild(node);
    });
  }

  window.wordDiff = { diff: diff, render: render };
})();
