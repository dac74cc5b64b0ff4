// The task lists on lesson pages ("Your steps, to tick off as you go") can be ticked, and the
// ticks are kept in this browser (localStorage, per page). `course status` keeps the real
// progress: the lessons whose check has passed.
(function () {
  function setUp() {
    var boxes = document.querySelectorAll("article .task-list-item input[type=checkbox]");
    if (!boxes.length) return;
    var key = "course-tasks:" + location.pathname.replace(/\/index\.html$/, "/");
    var saved = [];
    try { saved = JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { saved = []; }
    boxes.forEach(function (box, i) {
      box.disabled = false;
      box.checked = saved[i] === true;
      box.addEventListener("change", function () {
        var ticks = Array.prototype.map.call(boxes, function (b) { return b.checked; });
        try { localStorage.setItem(key, JSON.stringify(ticks)); } catch (e) { /* storage off: ticks last this visit */ }
      });
    });
  }
  if (typeof document$ !== "undefined") document$.subscribe(setUp); else document.addEventListener("DOMContentLoaded", setUp);
})();
