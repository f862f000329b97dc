// The page of a number several rules held: with ?date=2005 (or 2005-06, 2005-06-15), open the
// rule that held it on that day (the first of a year or month given alone); else list them all.
(function () {
  "use strict";
  var asked = window.rulesarchiveAsOf.asked();
  if (!asked) return;
  var held = window.rulesarchiveAsOf.inForce(document.querySelectorAll("ul.holders li"), asked.day);
  if (held) {
    location.replace(held.querySelector("a").href);
  } else {
    var note = document.getElementById("as-of");
    note.textContent = note.getAttribute("data-none").replace("{date}", asked.text);
  }
})();
