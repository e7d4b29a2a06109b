/* Explain Analyzer: the term tooltip, copy buttons, and the misread form's errors.
   Loaded from 'self' (strict CSP): no inline handlers, everything delegated from document,
   so content swapped in by htmx works without re-initialising. Without JavaScript each term is a
   link to its explanation in the list of terms on the page, and the copies stay selectable <pre> blocks. */
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  // A term (.term) links to its explanation, written once on the page inside a .tip-source entry,
  // and is described by it. One shared tooltip shows a copy of the entry beside the term hovered,
  // focused or tapped. It follows the term in the document, so Tab reaches its links next, and it
  // is fixed to the viewport, so it never widens the plan table's scroll box or the page.
  var MARGIN = 8;
  var tip = null; // the shared tooltip, made when first shown
  var current = null; // the term it is shown for
  var pinned = false; // opened by a click or tap: stays open until closed
  var dismissed = null; // a term closed with Escape or a click: not reopened until left
  var hideTimer = 0;

  function termAt(node) {
    return node && node.closest ? node.closest(".term") : null;
  }

  function within(node) {
    return Boolean(node && current && (current.contains(node) || tip.contains(node)));
  }

  function entryOf(term) {
    var source = document.getElementById(term.getAttribute("aria-describedby") || "");
    return source && source.closest(".tip-source");
  }

  // The entry copied without its ids, in a list of the same kind as the one it comes from.
  function copyOf(entry) {
    var list = document.createElement(entry.parentNode.tagName);
    var copy = entry.cloneNode(true);
    copy.querySelectorAll("[id]").forEach(function (node) {
      node.removeAttribute("id");
    });
    list.appendChild(copy);
    return list;
  }

  function place() {
    var rect = current.getBoundingClientRect();
    var width = tip.offsetWidth;
    var height = tip.offsetHeight;
    var top = rect.bottom + 2;
    if (top + height > window.innerHeight - MARGIN && rect.top - height - 2 > MARGIN) {
      top = rect.top - height - 2;
    }
    tip.style.left = Math.max(MARGIN, Math.min(rect.left, window.innerWidth - width - MARGIN)) + "px";
    tip.style.top = top + "px";
  }

  function show(term) {
    var entry = entryOf(term);
    if (!entry) return;
    window.clearTimeout(hideTimer);
    if (!tip) {
      tip = document.createElement("span");
      tip.className = "tip";
      tip.setAttribute("role", "tooltip");
    }
    if (term !== current || !tip.isConnected) {
      tip.replaceChildren(copyOf(entry));
      term.after(tip);
      current = term;
      pinned = false;
    }
    tip.hidden = false;
    place();
  }

  function hide() {
    window.clearTimeout(hideTimer);
    if (tip) tip.hidden = true;
    current = null;
    pinned = false;
  }

  function hideSoon() {
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, 150); // time to move the pointer across onto the tooltip
  }

  document.addEventListener("mouseover", function (event) {
    var term = termAt(event.target);
    if (term && term !== dismissed) show(term);
    else if (within(event.target)) window.clearTimeout(hideTimer);
  });

  document.addEventListener("mouseout", function (event) {
    var left = event.relatedTarget;
    if (dismissed && dismissed.contains(event.target) && !dismissed.contains(left)) dismissed = null;
    if (within(event.target) && !within(left) && !pinned && !within(document.activeElement)) hideSoon();
  });

  document.addEventListener("focusin", function (event) {
    var term = termAt(event.target);
    if (term && term !== dismissed) show(term);
  });

  document.addEventListener("focusout", function (event) {
    var next = event.relatedTarget;
    if (dismissed && dismissed.contains(event.target) && !dismissed.contains(next)) dismissed = null;
    // A click on the tooltip's text takes the focus nowhere: keep it open under the pointer.
    if (within(event.target) && !within(next) && !(next === null && tip.matches(":hover"))) hide();
  });

  // Tap (or click, or Enter on the focused term) toggles the tooltip; a click elsewhere closes it.
  document.addEventListener("click", function (event) {
    var term = termAt(event.target);
    if (!term) {
      if (current && !within(event.target)) hide();
      return;
    }
    event.preventDefault();
    if (term === current && pinned) {
      hide();
      dismissed = term;
    } else {
      dismissed = null;
      show(term);
      pinned = current === term;
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !current) return;
    var term = current;
    var inside = tip.contains(document.activeElement);
    dismissed = term;
    hide();
    if (inside) term.focus();
  });

  function reposition() {
    if (!current) return;
    if (current.isConnected) place();
    else hide();
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
