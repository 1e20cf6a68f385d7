/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flame_js.c - the one inline script of a page with flame graphs
 * (results/report/flame.h): above each graph a search box (a regular
 * expression; matching frames turn magenta and the share of the samples
 * they hold, counted once where they nest, is said beside it, with their
 * change in ns/op on a differential graph) and a reset button; a click
 * on a frame zooms to it: it and what it calls fill the width, its
 * callers stay as full-width bars, the rest is hidden, and the labels are
 * cut again to the new widths as flame.c cuts them. Nothing is fetched;
 * the page without script still shows every frame with its hover title.
 */
#include <stdio.h>

#include "results/report/flame.h"

/* No "</" and no "]]>" inside: it sits in a CDATA section of <script>. */
static const char script[] =
	"document.addEventListener('DOMContentLoaded', function () {\n"
	"  var NS = 'http://www.w3.org/2000/svg';\n"
	"  function cut(name, suf, w, cw) {\n"
	"    var fit = Math.floor((w - 6) / cw);\n"
	"    if (fit < 4) return '';\n"
	"    if (name.length + suf.length <= fit) return name + suf;\n"
	"    if (fit > suf.length + 3) return name.slice(0, fit - suf.length - 2) + '..' + suf;\n"
	"    return name.slice(0, fit - 2) + '..';\n"
	"  }\n"
	"  Array.prototype.forEach.call(document.querySelectorAll('svg.flame'), function (svg) {\n"
	"    var W = svg.viewBox.baseVal.width, cw = parseFloat(svg.getAttribute('data-cw'));\n"
	"    var ns = svg.getAttribute('data-unit') === 'ns';\n"
	"    var fr = Array.prototype.map.call(svg.querySelectorAll('g.f'), function (g) {\n"
	"      var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"      var ti = g.querySelector('title').textContent;\n"
	"      return { g: g, r: r, t: t, x: parseFloat(r.getAttribute('x')),\n"
	"               w: parseFloat(r.getAttribute('width')), d: parseInt(g.getAttribute('data-d'), 10),\n"
	"               fill: r.getAttribute('fill'), suf: g.getAttribute('data-s') || '',\n"
	"               dn: parseFloat(g.getAttribute('data-dn')) || 0,\n"
	"               name: ti.slice(0, ti.lastIndexOf(' (')) };\n"
	"    });\n"
	"    var bar = document.createElement('div');\n"
	"    bar.className = 'flamectl';\n"
	"    var box = document.createElement('input');\n"
	"    box.type = 'search';\n"
	"    box.placeholder = 'search frames (regular expression)';\n"
	"    box.setAttribute('aria-label', 'search the frames of this flame graph');\n"
	"    var reset = document.createElement('button');\n"
	"    reset.type = 'button';\n"
	"    reset.textContent = 'reset zoom';\n"
	"    var hit = document.createElement('span');\n"
	"    hit.className = 'flamehit';\n"
	"    bar.appendChild(box); bar.appendChild(reset); bar.appendChild(hit);\n"
	"    svg.parentNode.insertBefore(bar, svg);\n"
	"    function place(f, x, w, shown, faded) {\n"
	"      f.g.style.display = shown ? '' : 'none';\n"
	"      if (!shown) return;\n"
	"      f.r.setAttribute('x', x.toFixed(2));\n"
	"      f.r.setAttribute('width', w.toFixed(2));\n"
	"      f.t.setAttribute('x', (x + 3).toFixed(2));\n"
	"      f.t.textContent = cut(f.name, f.suf, w, cw);\n"
	"      f.g.style.opacity = faded ? '0.6' : '';\n"
	"    }\n"
	"    function zoom(z) {\n"
	"      var e = 1e-6 * W;\n"
	"      fr.forEach(function (f) {\n"
	"        if (!z) return place(f, f.x, f.w, true, false);\n"
	"        var inside = f.x >= z.x - e && f.x + f.w <= z.x + z.w + e;\n"
	"        var over = f.x <= z.x + e && f.x + f.w >= z.x + z.w - e;\n"
	"        if (f.d >= z.d && inside)\n"
	"          place(f, (f.x - z.x) * W / z.w, f.w * W / z.w, true, false);\n"
	"        else if (f.d < z.d && over)\n"
	"          place(f, 0, W, true, true);\n"
	"        else\n"
	"          place(f, 0, 0, false, false);\n"
	"      });\n"
	"      svg.setAttribute('data-zoom', z ? z.name : '');\n"
	"    }\n"
	"    function search() {\n"
	"      var re = null, m = [], end = -1, sum = 0, dn = 0;\n"
	"      try { re = box.value ? new RegExp(box.value) : null; } catch (err) { re = null; }\n"
	"      fr.forEach(function (f) {\n"
	"        var on = re !== null && re.test(f.name);\n"
	"        f.r.setAttribute('fill', on ? 'rgb(230,0,230)' : f.fill);\n"
	"        if (on) m.push(f);\n"
	"      });\n"
	"      m.sort(function (a, b) { return a.x - b.x || a.d - b.d; });\n"
	"      m.forEach(function (f) {\n"
	"        if (f.x + f.w <= end + 1e-6 * W) return;\n"
	"        sum += f.w; dn += f.dn; end = f.x + f.w;\n"
	"      });\n"
	"      svg.setAttribute('data-matched', String(m.length));\n"
	"      hit.textContent = !box.value ? '' : re === null ? 'not a regular expression' :\n"
	"        m.length + ' frames matched, ' + (100 * sum / W).toFixed(1) + '% of the samples' +\n"
	"        (ns ? ', ' + (dn >= 0 ? '+' : '') + dn.toFixed(1) + ' ns/op changed' : '');\n"
	"    }\n"
	"    fr.forEach(function (f) {\n"
	"      f.g.style.cursor = 'pointer';\n"
	"      f.g.addEventListener('click', function () { zoom(f); });\n"
	"    });\n"
	"    svg.querySelector('rect.bg').addEventListener('click', function () { zoom(null); });\n"
	"    reset.addEventListener('click', function () { zoom(null); });\n"
	"    box.addEventListener('input', search);\n"
	"  });\n"
	"});\n";

void rpt_flame_script(struct rpt_doc *d)
{
	if (d->flame_js)
		return;
	d->flame_js = true;
	fprintf(d->out, "<script>//<![CDATA[\n%s//]]></script>\n", script);
}
