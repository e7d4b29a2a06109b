/* Explain Analyzer: term tooltips on tap and Escape, copy buttons, and the misread form's errors.
   Loaded from 'self' (strict CSP): no inline handlers, everything delegated from document,
   so content swapped in by htmx works without re-initialising. Without JavaScript the
   tooltips still open on hover and focus (CSS) and the copies stay selectable <pre> blocks. */
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  var MARGIN = 8;
  var active = null; // the .annot whose tooltip was last placed

  function tipOf(annot) {
    return annot.querySelector(".tip");
  }

  // Fixed positioning keeps the tooltip out of the plan table's scroll box, inside the viewport.
  function place(annot) {
    var tip = tipOf(annot);
    var term = annot.querySelector(".term");
    if (!tip || !term) return;
    tip.classList.add("tip-fixed");
    var rect = term.getBoundingClientRect();
    var width = tip.offsetWidth;
    var height = tip.offsetHeight;
    var left = Math.min(rect.left, window.innerWidth - width - MARGIN);
    var top = rect.bottom + 2;
    if (top + height > window.innerHeight - MARGIN && rect.top - height - 2 > MARGIN) {
      top = rect.top - height - 2;
    }
    tip.style.left = Math.max(MARGIN, left) + "px";
    tip.style.top = top + "px";
    active = annot;
  }

  function close(annot) {
    annot.classList.remove("open");
    annot.classList.add("dismissed");
  }

  function closeAll(except) {
    document.querySelectorAll(".annot.open").forEach(function (annot) {
      if (annot !== except) close(annot);
    });
  }

  document.addEventListener("mouseover", function (event) {
    var annot = event.target.closest && event.target.closest(".annot");
    if (annot && annot !== active) place(annot);
  });

  document.addEventListener("mouseout", function (event) {
    var annot = event.target.closest && event.target.closest(".annot");
    if (annot && !annot.contains(event.relatedTarget) && !annot.contains(document.activeElement)) {
      annot.classList.remove("dismissed");
      if (active === annot) active = null;
    }
  });

  document.addEventListener("focusin", function (event) {
    var annot = event.target.closest && event.target.closest(".annot");
    if (annot) place(annot);
  });

  document.addEventListener("focusout", function (event) {
    var annot = event.target.closest && event.target.closest(".annot");
    if (annot && !annot.contains(event.relatedTarget)) {
      annot.classList.remove("open", "dismissed");
    }
  });

  // Tap (or click, or Enter/Space on the focused term) toggles the tooltip.
  document.addEventListener("click", function (event) {
    var term = event.target.closest && event.target.closest(".term");
    if (term) {
      var annot = term.closest(".annot");
      if (annot.classList.contains("open")) {
        close(annot);
      } else {
        closeAll(annot);
        annot.classList.remove("dismissed");
        annot.classList.add("open");
        place(annot);
      }
      return;
    }
    if (!(event.target.closest && event.target.closest(".annot"))) closeAll(null);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".annot");
    closeAll(null);
    if (focused) {
      close(focused);
      var term = focused.querySelector(".term");
      if (term && focused.contains(document.activeElement) && document.activeElement !== term) term.focus();
    }
    if (active) active.classList.add("dismissed");
  });

  function reposition() {
    if (active && document.contains(active)) place(active);
  }
  window.addEventListener("scroll", reposition, { capture: true, passive: true });
  window.addEventListener("resize", reposition, { passive: true });

  // "This was read wrong" answers a refused post with a 4xx and the form with its error message:
  // swap that in too (htmx leaves error answers out by default).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var misread = event.target.closest && event.target.closest(".misread"); // the element to swap
    if (misread && status >= 400 && status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // Copy buttons: data-copy="<id of a pre>" or data-copy-text="<text>".
  function selectContents(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function announce(button, text) {
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    button.textContent = text;
    window.setTimeout(function () {
      button.textContent = label;
    }, 1800);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy], [data-copy-text]");
    if (!button) return;
    var source = button.hasAttribute("data-copy") ? document.getElementById(button.getAttribute("data-copy")) : null;
    var text = source ? source.textContent : button.getAttribute("data-copy-text") || "";
    function fallback() {
      if (source) selectContents(source);
      var copied = false;
      try {
        copied = document.execCommand("copy");
      } catch (error) {
        copied = false;
      }
      announce(button, copied ? "Copied" : "Selected: press Ctrl+C");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        announce(button, "Copied");
      }, fallback);
    } else {
      fallback();
    }
  });
})();
