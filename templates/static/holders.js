// The page of a number several rules held: with ?date=2005 (or 2005-06, 2005-06-15), open the
// rule that held it on that day (the first of a year or month given alone); else list them all.
(function () {
  "use strict";
  var date = new URLSearchParams(location.search).get("date");
  if (!date || !/^\d{4}(?:-\d{2}(?:-\d{2})?)?$/.test(date)) return;
  var day = (date + "-01-01").slice(0, 10);
  var held = null;
  document.querySelectorAll("ul.holders li").forEach(function (row) {
    var since = row.getAttribute("data-since");
    if (since <= day && (held === null || since > held.getAttribute("data-since"))) held = row;
  });
  if (held) {
    location.replace(held.querySelector("a").href);
  } else {
    var note = document.getElementById("as-of");
    note.textContent = note.getAttribute("data-none").replace("{date}", date);
  }
})();
