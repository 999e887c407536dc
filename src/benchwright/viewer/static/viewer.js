// benchwright view: filter and sort tables in the page itself, so the one-file report
// (which has no server) filters and sorts as the served viewer does.
(function () {
  "use strict";

  function tableOf(id) {
    const found = document.getElementById(id);
    if (!found) return null;
    return found.tagName === "TABLE" ? found : found.querySelector("table");
  }

  function applyFilters(id) {
    const table = tableOf(id);
    if (!table) return;
    const controls = document.querySelectorAll('[data-filter-for="' + id + '"]');
    for (const row of table.tBodies[0].rows) {
      let show = true;
      for (const control of controls) {
        const want = control.value.trim().toLowerCase();
        if (!want) continue;
        if (control.dataset.col !== undefined) {
          const cell = row.cells[Number(control.dataset.col)];
          show = show && !!cell && cell.textContent.trim().toLowerCase() === want;
        } else {
          show = show && row.textContent.toLowerCase().includes(want);
        }
      }
      row.hidden = !show;
    }
  }

  function sortBy(th) {
    const table = th.closest("table");
    const body = table.tBodies[0];
    const column = th.cellIndex;
    const ascending = th.getAttribute("aria-sort") !== "ascending";
    const key = (row) => {
      const text = row.cells[column] ? row.cells[column].textContent.trim() : "";
      const number = Number(text.split("/")[0]);
      return text !== "" && text !== "-" && !Number.isNaN(number) ? number : text.toLowerCase();
    };
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      const order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : typeof x === "number" ? -1 : 1;
      return ascending ? order : -order;
    });
    for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    rows.forEach((row) => body.appendChild(row));
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const control of document.querySelectorAll("[data-filter-for]")) {
      const id = control.dataset.filterFor;
      control.addEventListener("input", () => applyFilters(id));
      control.addEventListener("change", () => applyFilters(id));
    }
    for (const th of document.querySelectorAll("table.sortable thead th")) {
      th.addEventListener("click", (event) => {
        if (event.target.closest("a")) return;
        sortBy(th);
      });
    }
  });
})();
