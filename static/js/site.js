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

  // Plan tables scroll in a box of their own (.table-scroll). CSS sticks their header to the top of
  // that box; when the page has scrolled the box's top out of the window, --head-top moves the
  // header down by as much, so it stays in view. The row numbers and the id and table columns stick
  // to the left while the table scrolls sideways: their cells are marked .stick and .stick-<n>, the
  // offset of each in --stick-<n>, measured again whenever the table's size changes.
  var STICKY_COLUMNS = ["id", "table"];
  var headsPending = false;

  function stickHeads() {
    headsPending = false;
    document.querySelectorAll(".table-scroll > table > thead").forEach(function (head) {
      var top = head.parentNode.parentNode.getBoundingClientRect().top;
      var shift = top < 0 ? Math.round(-top) : 0;
      if (head.shift !== shift) {
        head.shift = shift;
        head.style.setProperty("--head-top", shift + "px");
      }
    });
  }

  function stickHeadsSoon() {
    if (headsPending) return;
    headsPending = true;
    window.requestAnimationFrame(stickHeads);
  }

  function stickColumns(table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head || !head.cells.length) return;
    var room = table.parentNode.clientWidth / 2; // never more than half of the box
    var columns = [];
    var offsets = [];
    var left = 0;
    Array.prototype.forEach.call(head.cells, function (cell, index) {
      var name = cell.textContent.trim().toLowerCase();
      if (index > 0 && STICKY_COLUMNS.indexOf(name) < 0) return;
      if (index > 0 && left + cell.offsetWidth > room) return;
      columns.push(index);
      offsets.push(left);
      left += cell.offsetWidth;
    });
    offsets.forEach(function (offset, n) {
      table.style.setProperty("--stick-" + n, offset + "px");
    });
    var key = columns.join(" ");
    if (table.getAttribute("data-sticky") === key) return;
    table.querySelectorAll(".stick").forEach(function (cell) {
      cell.classList.remove("stick", "stick-0", "stick-1", "stick-2", "stick-last");
    });
    Array.prototype.forEach.call(table.rows, function (row) {
      columns.forEach(function (index, n) {
        var cell = row.cells[index];
        if (cell) cell.classList.add("stick", "stick-" + n);
        if (cell && n === columns.length - 1) cell.classList.add("stick-last");
      });
    });
    table.setAttribute("data-sticky", key);
  }

  var resized = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      stickColumns(entry.target);
    });
  }) : null;

  function setUpTables(root) {
    (root || document).querySelectorAll(".table-scroll > table").forEach(function (table) {
      stickColumns(table);
      if (resized) resized.observe(table);
    });
    stickHeads();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpTables(document);
  });
  document.addEventListener("htmx:load", function (event) {
    setUpTables(event.detail.elt);
  });
  window.addEventListener("scroll", stickHeadsSoon, { passive: true });
  window.addEventListener("resize", stickHeadsSoon, { passive: true });

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

  // Live preview. A form with data-live-preview="<ms>" is sent the "preview" event (its hx-trigger)
  // that long after the last keystroke in one of its text areas, and at once after a paste. A paste
  // into the EXPLAIN box (or "Try an example") also brings the result into view, where the progress
  // of the analysis shows. Without JavaScript the form posts as usual.
  var typingTimer = 0;
  var pasteTimer = 0;

  function liveForm(node) {
    var form = node && node.tagName === "TEXTAREA" ? node.form : null;
    return form && form.hasAttribute("data-live-preview") ? form : null;
  }

  function resultOf(form) {
    return document.querySelector(form.getAttribute("hx-target") || "#result");
  }

  // Scrolls the result's top near the top of the window, unless it is already in the upper part.
  // Until the answer comes, the result is given the window's height (.revealing), so that the page
  // can scroll that far.
  function reveal(form) {
    var result = resultOf(form);
    if (!result) return;
    var top = result.getBoundingClientRect().top;
    if (top >= 0 && top < window.innerHeight * 0.4) return;
    result.classList.add("revealing");
    window.scrollTo({ top: window.scrollY + top - 12, behavior: "instant" });
  }

  function preview(form, show) {
    window.clearTimeout(typingTimer);
    typingTimer = 0;
    form.dispatchEvent(new CustomEvent("preview"));
    if (show && form.elements.explain && form.elements.explain.value.trim()) reveal(form);
  }

  document.addEventListener("input", function (event) {
    var form = liveForm(event.target);
    if (!form || pasteTimer) return; // the paste being handled sends it at once
    window.clearTimeout(typingTimer);
    typingTimer = window.setTimeout(function () {
      preview(form, false);
    }, Number(form.getAttribute("data-live-preview")) || 600);
  });

  document.addEventListener("paste", function (event) {
    var field = event.target;
    var form = liveForm(field);
    if (!form) return;
    window.clearTimeout(typingTimer);
    window.clearTimeout(pasteTimer);
    // After the browser has put the pasted text in the box.
    pasteTimer = window.setTimeout(function () {
      pasteTimer = 0;
      preview(form, field.name === "explain");
    }, 0);
  });

  // "Try an example": fills the box with the example's text and previews it. Without JavaScript
  // (or if fetching it fails) the link opens the analysis page with the example.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-example]");
    var form = link && document.querySelector("form[data-live-preview]");
    if (!form || !form.elements.explain) return;
    event.preventDefault();
    fetch(link.getAttribute("data-example"))
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (text) {
        form.elements.explain.value = text;
        if (form.elements.query) form.elements.query.value = "";
        preview(form, true);
      })
      .catch(function () {
        window.location.href = link.href;
      });
  });

  // While the preview is on its way, its target says so (aria-busy; site.css shows the progress).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    if (!target || !target.classList.contains("result")) return;
    target.setAttribute("aria-busy", "true");
    target.busyWith = event.detail.xhr;
  });

  function done(event) {
    var target = event.detail.target;
    if (target && target.busyWith && target.busyWith === event.detail.xhr) {
      target.busyWith = null;
      target.removeAttribute("aria-busy");
      target.classList.remove("revealing");
    }
  }
  document.addEventListener("htmx:afterRequest", done);
  document.addEventListener("htmx:sendError", done);

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
