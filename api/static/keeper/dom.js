// Small DOM helpers: build elements, format numbers, show errors next to the inputs they name.

/**
 * h("tag.class#id", {attr: value, onclick: fn, dataset: {...}}, ...children): an element.
 * Children may be strings, nodes, arrays, or null/false (skipped).
 */
export function h(spec, attrs, ...children) {
  const [, tag = "div", rest = ""] = /^([a-z0-9-]*)(.*)$/i.exec(spec);
  const el = document.createElement(tag || "div");
  for (const part of rest.match(/[.#][^.#]+/g) || []) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name === "class") el.className = value;
    else if (name === "value" || name === "checked" || name === "selected") el[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** svg("line", {x1: ...}, ...children): an SVG element. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

const numberFormat = new Intl.NumberFormat("en-US");

/** 3740 → "3,740"; -25 → "−25" (a true minus sign, read as "minus"). */
export function points(n) {
  if (n === null || n === undefined) return "";
  return n < 0 ? `\u2212${numberFormat.format(-n)}` : numberFormat.format(n);
}

let uid = 0;
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** A labelled form field: <div.field><label/>control<p.hint/></div>, wired for screen readers. */
export function field(labelText, control, { hint, pointer, className } = {}) {
  if (!control.id) control.id = nextId("f");
  const parts = [h("label", { for: control.id }, labelText), control];
  if (hint) {
    const hintEl = h("p.hint", { id: `${control.id}-hint` }, hint);
    control.setAttribute("aria-describedby", hintEl.id);
    parts.push(hintEl);
  }
  const wrap = h("div.field", { class: `field${className ? ` ${className}` : ""}` }, parts);
  if (pointer !== undefined) wrap.dataset.pointer = pointer;
  return wrap;
}

/** A whole-number input that brings up the numeric keypad on phones. */
export function numberInput(name, value, { signed = false, placeholder } = {}) {
  return h("input", {
    type: "text",
    name,
    inputmode: signed ? "text" : "numeric",
    pattern: signed ? "-?[0-9]*" : "[0-9]*",
    autocomplete: "off",
    placeholder,
    value: value === null || value === undefined ? "" : String(value),
  });
}

/** "12" → 12, "" → fallback; anything else is sent as typed, so the API names it in its answer. */
export function readNumber(text, fallback = 0) {
  const trimmed = String(text).trim().replace(/^\u2212/, "-");
  if (trimmed === "") return fallback;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

// ---- errors next to their inputs ------------------------------------------------------------

/** Remove every error shown inside `root`. */
export function clearErrors(root) {
  for (const el of root.querySelectorAll(".field-error")) el.remove();
  for (const el of root.querySelectorAll("[aria-invalid]")) {
    el.removeAttribute("aria-invalid");
    const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && !id.startsWith("err-"));
    if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
    else el.removeAttribute("aria-describedby");
  }
  for (const el of root.querySelectorAll(".has-error")) el.classList.remove("has-error");
  const summary = root.querySelector(".error-summary");
  if (summary) {
    summary.replaceChildren();
    summary.hidden = true;
  }
}

/** The element under `root` whose data-pointer is the longest prefix of `pointer` (whole segments). */
export function findPointerTarget(root, pointer) {
  let best = null;
  let bestLength = -1;
  for (const el of root.querySelectorAll("[data-pointer]")) {
    const p = el.dataset.pointer;
    if ((pointer === p || pointer.startsWith(`${p}/`) || p === "") && p.length > bestLength) {
      best = el;
      bestLength = p.length;
    }
  }
  return best;
}

/**
 * Show a problem's errors where they happen: each `errors[].pointer` next to the input it names,
 * and every error (with a link to its input) in the form's summary, focused unless `focus` is false.
 * Returns the summary element.
 */
export function showProblem(root, err, { title = "Not stored: the rules say no", focus = true } = {}) {
  clearErrors(root);
  const summary = root.querySelector(".error-summary");
  const items = [];
  const errors = err.errors.length ? err.errors : [{ pointer: "", detail: err.message }];
  for (const item of errors) {
    const pointer = item.pointer ?? (item.parameter ? `?${item.parameter}` : "");
    const target = pointer ? findPointerTarget(root, pointer) : null;
    let link = null;
    if (target && target.dataset.pointer !== "") {
      target.classList.add("has-error");
      const isControl = target.matches("input, select, textarea");
      const control = isControl ? target : target.querySelector("input, select, textarea");
      const message = h("p.field-error", { id: nextId("err") }, item.detail || item.code || "invalid");
      if (isControl) target.after(message);
      else target.append(message);
      if (control) {
        control.setAttribute("aria-invalid", "true");
        const ids = (control.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        control.setAttribute("aria-describedby", [...ids, message.id].join(" "));
        link = control;
      }
    }
    const where = target && target.dataset.label ? target.dataset.label : labelFor(target);
    const text = `${where ? `${where}: ` : ""}${item.detail || item.code || err.message}`;
    if (link) {
      const a = h("a", { href: `#${link.id}` }, text);
      a.addEventListener("click", (event) => {
        event.preventDefault();
        link.focus();
      });
      items.push(h("li", { dataset: { code: item.code || "" } }, a));
    } else {
      items.push(h("li", { dataset: { code: item.code || "" } }, text));
    }
  }
  if (summary) {
    summary.replaceChildren(
      h("h3", { tabindex: "-1" }, title),
      err.problem && err.problem.title && err.errors.length ? h("p", err.problem.title) : null,
      h("ul", items),
    );
    summary.hidden = false;
    // A live check (as the person types) shows its errors without taking the focus away.
    if (focus) summary.querySelector("h3").focus();
  }
  return summary;
}

function labelFor(target) {
  if (!target) return "";
  const control = target.matches("input, select, textarea") ? target : target.querySelector("input, select, textarea");
  if (!control || !control.id) return "";
  const label = target.ownerDocument.querySelector(`label[for="${control.id}"]`);
  return label ? label.textContent.trim() : "";
}
