// One reading of a typed rule number, shared by the Rule box, goto, 404 and search:
// "rule 400.6", "CR 702.19B", " 704 " -> "400.6", "702.19b", "704" (null if not a number).
(function () {
  "use strict";
  function normalise(text) {
    var number = (text || "").trim().replace(/^(?:cr|rules?)(?=[\s.\d])\.?/i, "");
    number = number.replace(/\s+/g, "").replace(/\.$/, "").toLowerCase();
    return /^[0-9](?:[0-9]{2}(?:\.[0-9]+[a-z]{0,2})?)?$/.test(number) ? number : null;
  }
  window.ruleNumber = { normalise: normalise };
})();
