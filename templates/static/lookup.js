// Resolve a rule number (?n=702.19b, or the path of a page that does not exist) to its page,
// or suggest the nearest numbers that do exist.
(function () {
  "use strict";
  var settings = window.RULESARCHIVE;
  var numbers = window.RULESARCHIVE_NUMBERS || [];
  var status = document.getElementById("goto-status");
  var list = document.getElementById("goto-suggestions");
  var wanted = new URLSearchParams(location.search).get("n");
  if (!wanted && settings.notFound) {
    var match = location.pathname.match(/\/n\/([0-9]{3}(?:\.[0-9]+[a-z]*)?)\/?/);
    wanted = match ? match[1] : "";
  }
  wanted = (wanted || "").trim().replace(/\.$/, "");
  if (!wanted) { status.textContent = "Give a rule number, such as 702.19b."; return; }
  if (numbers.indexOf(wanted) >= 0) {
    status.textContent = "Going to rule " + wanted + "…";
    location.replace(settings.rules + wanted + "/index.html");
    return;
  }
  var prefix = wanted;
  var near = [];
  while (prefix.length > 2 && near.length === 0) {
    near = numbers.filter(function (n) { return n.indexOf(prefix) === 0; });
    prefix = prefix.slice(0, -1);
  }
  status.textContent = "There is no rule " + wanted + " in any release." + (near.length ? " Perhaps:" : "");
  near.slice(0, 12).forEach(function (number) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = settings.rules + number + "/index.html";
    a.textContent = number;
    li.appendChild(a);
    list.appendChild(li);
  });
})();
