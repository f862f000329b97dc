// Compare any two releases in the browser, from the per-release data files (plain scripts,
// so that it works from file:// as well as over HTTP).
(function () {
  "use strict";
  var settings = window.RULESARCHIVE;
  var loaded = window.RULESARCHIVE_RELEASES = window.RULESARCHIVE_RELEASES || {};
  var form = document.getElementById("compare");
  var status = document.getElementById("compare-status");
  var result = document.getElementById("compare-result");

  function load(date) {
    return new Promise(function (resolve, reject) {
      if (loaded[date]) return resolve(loaded[date]);
      var script = document.createElement("script");
      script.src = settings.data + date + ".js";
      script.onload = function () { resolve(loaded[date]); };
      script.onerror = function () { reject(new Error("cannot load the release " + date)); };
      document.head.appendChild(script);
    });
  }

  function byNumber(release) {
    var map = new Map();
    release.rules.forEach(function (rule) { map.set(rule[0], rule[1]); });
    return map;
  }

  function item(number, kind, oldText, newText) {
    var li = document.createElement("li");
    li.className = "change " + kind;
    var h = document.createElement("h3");
    var a = document.createElement("a");
    a.href = settings.rules + number + "/index.html";
    a.textContent = number;
    h.appendChild(a);
    h.appendChild(document.createTextNode(" " + kind));
    li.appendChild(h);
    var p = document.createElement("p");
    p.className = "text diff";
    window.wordDiff.render(window.wordDiff.diff(oldText, newText), p);
    li.appendChild(p);
    return li;
  }

  function compare(oldDate, newDate) {
    status.textContent = "Comparing " + oldDate + " with " + newDate + "…";
    result.textContent = "";
    Promise.all([load(oldDate), load(newDate)]).then(function (releases) {
      var before = byNumber(releases[0]), after = byNumber(releases[1]);
      var count = 0;
      after.forEach(function (text, number) {
        if (!before.has(number)) { result.appendChild(item(number, "added", "", text)); count++; }
        else if (before.get(number) !== text) { result.appendChild(item(number, "changed", before.get(number), text)); count++; }
      });
      before.forEach(function (text, number) {
        if (!after.has(number)) { result.appendChild(item(number, "removed", text, "")); count++; }
      });
      status.textContent = count + " rules differ between " + oldDate + " and " + newDate + " (by number).";
    }).catch(function (error) { status.textContent = error.message; });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var oldDate = form.elements.old.value, newDate = form.elements["new"].value;
    history.replaceState(null, "", "?old=" + oldDate + "&new=" + newDate);
    compare(oldDate, newDate);
  });
  var query = new URLSearchParams(location.search);
  if (query.get("old") && query.get("new")) {
    form.elements.old.value = query.get("old");
    form.elements["new"].value = query.get("new");
    compare(query.get("old"), query.get("new"));
  } else if (form.elements.old.options.length > 1) {
    form.elements.old.selectedIndex = 1;
  }
})();
