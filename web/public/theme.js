// Apply the stored colour mode before first paint, so a dark page never flashes white.
// A file rather than an inline script, so the content security policy can forbid inline code.
(function () {
  try {
    var t = localStorage.getItem("theme");
    var dark = t === "dark" || ((t === null || t === "system") && matchMedia("(prefers-color-scheme: dark)").matches);
    if (dark) document.documentElement.classList.add("dark");
  } catch (e) {}
})();
