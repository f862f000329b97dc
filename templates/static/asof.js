// A page asked about a date (?date=2005, 2005-06 or 2005-06-15: the first day of a year or a
// month given alone), and the row of a list in force on it: the last one whose data-since is
// on or before that day. Shared by the number lookup and the lists of releases.
(function () {
  "use strict";
  function asked() {
    var date = new URLSearchParams(location.search).get("date");
    if (!date || !/^\d{4}(?:-\d{2}(?:-\d{2})?)?$/.test(date)) return null;
    return { text: date, day: (date + "-01-01").slice(0, 10) };
  }
  function inForce(rows, day) {
    var held = null;
    Array.prototype.forEach.call(rows, function (row) {
      var since = row.getAttribute("data-since");
      if (since <= day && (held === null || since > held.getAttribute("data-since"))) held = row;
    });
    return held;
  }
  window.rulesarchiveAsOf = { asked: asked, inForce: inForce };
})();
