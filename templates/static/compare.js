// Compare any two releases in the browser, from the per-release data files (plain scripts,
// so that it works from file:// as well as over HTTP). Rules are paired as the changelogs pair
// them: each release's alignment with the one before (renumbering, splits, merges; moves.js)
// is followed step by step from one release to the other, so a renumbered rule is one rule.
(function () {
  "use strict";
  var settings = window.RULESARCHIVE;
  var messages = settings.messages;
  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }
  var loaded = window.RULESARCHIVE_RELEASES = window.RULESARCHIVE_RELEASES || {};
  var moves = (window.RULESARCHIVE_MOVES || {})[settings.language] || {};
  var form = document.getElementById("compare");
  var status = document.getElementById("compare-status");
  var result = document.getElementById("compare-result");
  var dates = Array.prototype.map.call(form.elements.old.options, function (o) { return o.value; }).sort();

  function script(date) {
    return new Promise(function (resolve, reject) {
      if (loaded[date]) return resolve(loaded[date]);
      var tag = document.createElement("script");
      tag.src = settings.data + date + ".js";
      tag.onload = function () { resolve(loaded[date]); };
      tag.onerror = function () { reject(new Error(say(messages.cannotLoad, { date: date }))); };
      document.head.appendChild(tag);
    });
  }

  // A release's rules as a Map number -> text: a whole release as it is, a step from the
  // release before applied to that release (loaded the same way, down to the year's first).
  var whole = {};
  function load(date) {
    if (whole[date]) return Promise.resolve(whole[date]);
    return script(date).then(function (data) {
      if (data.base === null) {
        var rules = new Map();
        data.rules.forEach(function (rule) { rules.set(rule[0], rule[1]); });
        return rules;
      }
      return load(data.base).then(function (base) {
        var rules = new Map();
        data.numbers.forEach(function (number) {
          var changed = data.changed[number];
          rules.set(number, changed ? changed[0] : base.get(number));
        });
        return rules;
      });
    }).then(function (rules) { whole[date] = rules; return rules; });
  }

  // Where each number of the earlier release is in the later one (null: removed on the way).
  function follow(numbers, earlier, later) {
    var where = new Map();
    numbers.forEach(function (number) { where.set(number, number); });
    var renumbered = 0;
    for (var k = dates.indexOf(earlier) + 1; k <= dates.indexOf(later); k++) {
      var goes = new Map(moves[dates[k]] || []);
      where.forEach(function (now, origin) {
        if (now !== null && goes.has(now)) where.set(origin, goes.get(now));
      });
    }
    where.forEach(function (now, origin) { if (now !== null && now !== origin) renumbered++; });
    return { where: where, renumbered: renumbered };
  }

  // A rule links to its release read whole, where it stands as that release printed it.
  function item(number, was, kind, oldText, newText, date) {
    var li = document.createElement("li");
    li.className = "change " + kind;
    var h = document.createElement("h2");
    var a = document.createElement("a");
    a.href = settings.releases + date + "/rules.html#" + (settings.anchor ? settings.anchor(number) : number);
    a.textContent = number;
    h.appendChild(a);
    if (was && was !== number) {
      var moved = document.createElement("span");
      moved.className = "moved";
      moved.textContent = " (" + messages.was + " " + was + ")";
      h.appendChild(moved);
    }
    h.appendChild(document.createTextNode(" " + messages[kind]));
    li.appendChild(h);
    var p = document.createElement("p");
    p.className = "text diff";
    window.wordDiff.render(window.wordDiff.diff(oldText, newText), p);
    li.appendChild(p);
    return li;
  }

  // Two releases in a row: the later one's step holds every text that differs, with what the
  // earlier printed under those numbers (`was`), so its file alone is read. Null when a pair
  // needs a text it does not hold (a rule moved onto a number whose text stayed).
  function adjacent(oldDate, newDate) {
    var earlier = oldDate < newDate ? oldDate : newDate, later = oldDate < newDate ? newDate : oldDate;
    if (dates.indexOf(later) !== dates.indexOf(earlier) + 1) return Promise.resolve(null);
    return script(later).then(function (data) {
      if (data.base !== earlier || !data.was) return null;
      var before = new Map(), after = new Map(), present = new Set(data.numbers);
      Object.keys(data.was).forEach(function (n) { before.set(n, data.was[n][0]); });
      Object.keys(data.changed).forEach(function (n) { after.set(n, data.changed[n][0]); });
      var moved = follow(Array.from(before.keys()), earlier, later).where;
      var whole = true;
      moved.forEach(function (now) { if (now !== null && present.has(now) && !after.has(now)) whole = false; });
      if (!whole) return null;
      return oldDate < newDate ? [before, after] : [after, before];
    });
  }

  function compare(oldDate, newDate) {
    status.textContent = say(messages.comparing, { old: oldDate, "new": newDate });
    result.textContent = "";
    adjacent(oldDate, newDate).then(function (pair) {
      return pair || Promise.all([load(oldDate), load(newDate)]);
    }).then(function (releases) {
      var before = releases[0], after = releases[1];
      var forward = oldDate <= newDate;
      var followed = forward ? follow(Array.from(before.keys()), oldDate, newDate)
        : follow(Array.from(after.keys()), newDate, oldDate);
      var pairs = new Map();  // old number -> new number
      followed.where.forEach(function (now, origin) {
        if (now === null) return;
        if (forward) pairs.set(origin, now); else pairs.set(now, origin);
      });
      var counts = { changed: 0, added: 0, removed: 0 };
      var reached = new Set();
      before.forEach(function (text, number) {
        var now = pairs.get(number);
        if (now === undefined || !after.has(now)) {
          result.appendChild(item(number, "", "removed", text, "", oldDate)); counts.removed++;
          return;
        }
        reached.add(now);
        if (after.get(now) !== text) {
          result.appendChild(item(now, number, "changed", text, after.get(now), newDate)); counts.changed++;
        }
      });
      after.forEach(function (text, number) {
        if (!reached.has(number)) { result.appendChild(item(number, "", "added", "", text, newDate)); counts.added++; }
      });
      status.textContent = say(messages.result, {
        changed: counts.changed, added: counts.added, removed: counts.removed,
        old: oldDate, "new": newDate, renumbered: followed.renumbered
      });
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
