// Board elements that stand for a prompt option click that option's button, so every choice
// stays a plain button for keyboards and screen readers as well.
document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-option]");
  if (!target) return;
  const button = document.querySelector(`#prompt [data-option-button="${target.dataset.option}"]`);
  if (button) button.click();
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const target = event.target.closest && event.target.closest("[data-option]");
  if (!target) return;
  event.preventDefault();
  target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
});
