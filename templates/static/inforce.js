// A list of releases asked for a date (its form, or ?date=2005 in a link): open the release
// in force on that day, read whole, or say that none was.
(function () {
  "use strict";
  var asked = window.rulesarchiveAsOf.asked();
  if (!asked) return;
  var row = window.rulesarchiveAsOf.inForce(document.querySelectorAll("tr[data-since]"), asked.day);
  if (row) {
    location.replace(row.querySelector("a.whole").href);
  } else {
    var note = document.getElementById("in-force-none");
    note.textContent = note.getAttribute("data-none").replace("{date}", asked.text);
  }
})();
