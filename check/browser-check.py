#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""browser-check.py PAGE.html SHOT.png [FIRST.png] - render a report in
headless Chromium at a 1400x900 viewport and say what a reader would meet:
console errors, uncaught exceptions, requests other than the page itself,
the size of every chart, where the answer starts in the first screen (the
top of the summary table, of compare's headline and verdict counts, in CSS
px from the top of the page; the viewport is 900 high), the sections folded
by default, and the width and the label size on screen of every flame
graph. SHOT is the whole page; FIRST, when given, the first screen.
On a page with flame graphs it then uses the first one as a reader
would ("flame_ui"): searches for its widest frame above the root by
name, counts the frames that turned magenta and reads the summary
beside the box; clicks that frame and measures it (it should fill the
width, with others hidden); presses "reset zoom" and checks that every
frame is back where it was. The screenshots are taken before that.

It drives Chromium over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each message a
JSON text ended by a NUL byte), so it needs only python3 and the Debian
chromium package: no websocket module, no npm. Prints one JSON object on
stdout; exit 0 when it could render the page (the caller judges the
findings), 1 when Chromium failed, 2 on bad usage.
"""
import base64
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
    "--disable-extensions", "--mute-audio", "--remote-debugging-pipe",
]
WIDTH = 1400
HEIGHT = 900
MAX_SHOT_HEIGHT = 16000

PROBE = r"""
(() => {
  const charts = Array.from(document.querySelectorAll('svg.chart')).map(e => {
    const r = e.getBoundingClientRect();
    const b = e.getBBox();
    return {w: r.width, h: r.height, drawn_w: b.width, drawn_h: b.height,
            shapes: e.querySelectorAll('path,rect,use,circle,text').length};
  });
  const missing = [];
  for (const u of document.querySelectorAll('svg use')) {
    const h = u.getAttribute('href') || u.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
    if (h && h.startsWith('#') && !document.getElementById(h.slice(1))) missing.push(h);
  }
  const top = id => { const e = document.getElementById(id);
                      return e ? e.getBoundingClientRect().top + window.scrollY : null; };
  const bs = getComputedStyle(document.body);
  const content_w = document.body.clientWidth - parseFloat(bs.paddingLeft)
                    - parseFloat(bs.paddingRight);
  const flames = Array.from(document.querySelectorAll('svg.flame')).map(e => {
    const t = e.querySelector('text');
    const m = e.getScreenCTM();
    return {w: e.getBoundingClientRect().width, content_w,
            label_px: t ? parseFloat(getComputedStyle(t).fontSize) * m.a : 0,
            labels: e.querySelectorAll('text').length};
  });
  const opened = Array.from(document.querySelectorAll('details[open] > summary'))
    .map(e => e.textContent);
  const env = document.querySelector('#env + details');
  const ids = {};
  let dup = 0;
  for (const e of document.querySelectorAll('[id]')) { if (ids[e.id]) dup++; ids[e.id] = 1; }
  return JSON.stringify({
    title: document.title,
    figures: document.querySelectorAll('figure').length,
    nochart: document.querySelectorAll('p.nochart').length,
    tables: document.querySelectorAll('table').length,
    scripts: document.scripts.length,
    charts, missing_refs: missing, duplicate_ids: dup,
    viewport_h: window.innerHeight, summary_top: top('summary-table'),
    headline_top: top('headline'), verdicts_top: top('verdicts'),
    env_folded: env ? !env.open : null,
    harness_open: opened.filter(t => t.startsWith('harness internals')).length,
    harness_sections: Array.from(document.querySelectorAll('summary'))
      .filter(e => e.textContent.startsWith('harness internals')).length,
    flames,
    height: document.documentElement.scrollHeight,
    text_len: document.body.innerText.length,
  });
})()
"""

FLAME_UI = r"""
(() => {
  const svg = document.querySelector('svg.flame');
  if (!svg) return JSON.stringify(null);
  const bar = svg.previousElementSibling;
  if (!bar || !bar.classList.contains('flamectl')) return JSON.stringify({bars: 0});
  const box = bar.querySelector('input');
  const frames = Array.from(svg.querySelectorAll('g.f'));
  const rw = g => parseFloat(g.querySelector('rect').getAttribute('width'));
  let z = null;
  for (const g of frames)
    if (g.getAttribute('data-d') === '1' && (!z || rw(g) > rw(z))) z = g;
  if (!z) return JSON.stringify({bars: 1, frames: frames.length});
  const w0 = rw(z), x0 = z.querySelector('rect').getAttribute('x');
  // frames beside z's subtree (no x overlap: neither its ancestors nor
  // its descendants), which the zoom must hide; a profile can have none
  const rx = g => parseFloat(g.querySelector('rect').getAttribute('x'));
  const outside = frames.filter(g => rx(g) + rw(g) <= parseFloat(x0) + 1e-6 ||
    rx(g) >= parseFloat(x0) + w0 - 1e-6).length;
  const t = z.querySelector('title').textContent, name = t.slice(0, t.lastIndexOf(' ('));
  box.value = '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
  box.dispatchEvent(new Event('input'));
  const magenta = frames.filter(g =>
    g.querySelector('rect').getAttribute('fill') === 'rgb(230,0,230)').length;
  const hit = bar.querySelector('.flamehit').textContent;
  z.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const zoom_w = rw(z), label = z.querySelector('text').textContent;
  const hidden = frames.filter(g => g.style.display === 'none').length;
  bar.querySelector('button').click();
  const restored = frames.every(g => g.style.display !== 'none') && rw(z) === w0 &&
    z.querySelector('rect').getAttribute('x') === x0;
  return JSON.stringify({bars: document.querySelectorAll('.flamectl').length,
    frames: frames.length, name, w0, magenta, hit, zoom_w,
    view_w: svg.viewBox.baseVal.width, label, hidden, outside, restored,
    inline_scripts: Array.from(document.scripts).filter(e => !e.src).length});
})()
"""


class Pipe:
    def __init__(self, chrome, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.resp_r, resp_w = os.pipe()

        def fds():   # in the child: the pipe ends at fds 3 and 4
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(resp_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.log = open(os.path.join(profile, "stderr.log"), "w+b")
        self.proc = subprocess.Popen(
            [chrome] + FLAGS + ["--user-data-dir=" + profile, "about:blank"],
            preexec_fn=fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=self.log)
        os.close(cmd_r)
        os.close(resp_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id, timeout)

    def wait(self, pred, timeout=60):
        end = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if "method" in m:
                    self.events.append(m)
                if pred(m):
                    if "error" in m:
                        raise RuntimeError("%s" % m["error"])
                    return m
            if time.time() > end:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.resp_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    page, shot = os.path.abspath(sys.argv[1]), sys.argv[2]
    first = sys.argv[3] if len(sys.argv) == 4 else None
    url = "file://" + page
    chrome = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with tempfile.TemporaryDirectory(prefix="cgs-chromium-") as profile:
        p = Pipe(chrome, profile)
        try:
            t = p.send("Target.createTarget", {"url": "about:blank"})
            tid = t["result"]["targetId"]
            a = p.send("Target.attachToTarget", {"targetId": tid, "flatten": True})
            s = a["result"]["sessionId"]
            for dom in ("Page", "Runtime", "Log", "Network"):
                p.send(dom + ".enable", session=s)
            p.send("Emulation.setDeviceMetricsOverride",
                   {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1,
                    "mobile": False}, session=s)
            p.send("Page.navigate", {"url": url}, session=s)
            p.wait(lambda m: m.get("method") == "Page.loadEventFired"
                   and m.get("sessionId") == s)
            r = p.send("Runtime.evaluate", {"expression": PROBE,
                                            "returnByValue": True}, session=s)
            probe = json.loads(r["result"]["result"]["value"])
            h = min(probe["height"], MAX_SHOT_HEIGHT)
            img = p.send("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": True,
                          "clip": {"x": 0, "y": 0, "width": WIDTH, "height": h,
                                   "scale": 1}}, session=s, timeout=120)
            with open(shot, "wb") as f:
                f.write(base64.b64decode(img["result"]["data"]))
            if first:
                img = p.send("Page.captureScreenshot", {"format": "png"},
                             session=s, timeout=120)
                with open(first, "wb") as f:
                    f.write(base64.b64decode(img["result"]["data"]))
            r = p.send("Runtime.evaluate", {"expression": FLAME_UI,
                                            "returnByValue": True}, session=s)
            probe["flame_ui"] = json.loads(r["result"]["result"]["value"])
            errors, requests = [], []
            for e in p.events:
                m, prm = e["method"], e.get("params", {})
                if m == "Runtime.consoleAPICalled" and prm.get("type") in ("error", "assert", "warning"):
                    errors.append("console %s: %s" % (prm["type"], prm.get("args")))
                elif m == "Runtime.exceptionThrown":
                    errors.append("exception: %s" % prm.get("exceptionDetails", {}).get("text"))
                elif m == "Log.entryAdded" and prm["entry"].get("level") in ("error", "warning"):
                    errors.append("log %s: %s" % (prm["entry"]["level"], prm["entry"].get("text")))
                elif m == "Network.requestWillBeSent":
                    u = prm["request"]["url"]
                    if u != url and not u.startswith("data:"):
                        requests.append(u)
            probe.update({"errors": errors, "requests": requests, "screenshot": shot,
                          "shot_height": h})
            print(json.dumps(probe))
            try:
                p.send("Browser.close", timeout=10)
            except Exception:
                pass
        except Exception as ex:
            p.log.seek(0)
            err = p.log.read()[-2000:].decode(errors="replace")
            print("browser-check: %s %s" % (ex, err), file=sys.stderr)
            p.proc.kill()
            p.proc.wait()
            return 1
        try:
            p.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            p.proc.kill()
            p.proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
