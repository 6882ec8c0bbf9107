// The "Print" button of the printable championship pages (no inline handler: CSP, app/web/headers.py).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
