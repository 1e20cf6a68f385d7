#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 68-export-tidy.sh - `cgscale export` read by a real consumer, pandas
# (Debian's python3-pandas): a real run of four tests (two without
# options, two with aux counters) exported as TSV, CSV and JSON lines
# loads with the documented dtypes; no row is a placeholder (no NA value,
# no metric a point cannot have); scope tells task rows from whole-point
# rows and the task rows of an interval sum to its point row (no double
# count); "no options" is the value {} so a group-by keeps every test;
# per_task_ops is the file's; a tab and a newline in a path stay one field.
# The disturbed column (last) is bool in pandas and logical in R (when
# Rscript is installed), true on every row of a run the runner marked, and
# a mean that leaves those rows out is compare's; a file no runner marked
# is marked on export as compare marks it; lkp-stats counts them.
# The lkp-stats of sendfile and remap alone give LKP's Throughput_Mbps and
# remap.ops_per_sec, the values of the file's aux counters.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
$PY -c 'import pandas' 2>/dev/null ||
	skip "pandas missing: apt-get install python3-pandas (scripts/deps.sh test lists it)"

"$CGSCALE" run -q -t 1,2 -m process -r 2 -w 0.1 -d 0.3 -i 0.1 -o r.json \
	page_fault1 page_fault3 sendfile remap >/dev/null 2>run.err || fail "run: $(cat run.err)"
[ "$(jq '[.points[] | select(.status == "ok") | .test] | unique | length' r.json)" = 4 ] ||
	skip "not all four tests ran here: $(jq -c '[.points[] | [.test, .status, .reason]]' r.json)"
odd=$(printf 'we\tird\nname')
mkdir "$odd" && cp r.json "$odd/r.json"

for f in tsv csv json-lines; do
	"$CGSCALE" export --format $f r.json "$odd" >"r.$f" 2>err || fail "export -f $f exit $?: $(cat err)"
done
"$CGSCALE" export --tsv r.json >tsv2 || fail "export --tsv exit $?"
[ "$(head -n 1 tsv2)" = "$(head -n 1 r.tsv)" ] || fail "--tsv and -f tsv differ in the header"

$PY - r.json "$odd" <<'PYEOF' || fail "pandas checks failed"
import json, sys
import pandas as pd

src, odd = sys.argv[1], sys.argv[2]
cols = ["file", "test", "mode", "tasks", "cgroup", "options", "run", "status", "scope",
        "task", "interval", "phase", "t_s", "metric", "unit", "value", "disturbed"]
def bad(msg):
    print("FAIL:", msg); sys.exit(1)

t = pd.read_csv("r.tsv", sep="\t")
if list(t.columns) != cols: bad(f"tsv columns {list(t.columns)}")
want = {"tasks": "int64", "run": "int64", "task": "float64", "interval": "float64",
        "t_s": "float64", "value": "float64", "file": "object", "options": "object",
        "disturbed": "bool"}
for c, d in want.items():
    if str(t[c].dtype) != d: bad(f"tsv column {c} is {t[c].dtype}, want {d}")
if t["value"].isna().any(): bad("a value is NA: a placeholder row")
if t["options"].isna().any() or t["cgroup"].isna().any(): bad("options/cgroup missing")
if set(t["scope"]) != {"point", "task"}: bad(f"scopes {set(t['scope'])}")
if (t["task"].isna() != (t["scope"] == "point")).any(): bad("task set on a point row or missing on a task row")
if not (t.loc[t.scope == "task", "task"] % 1 == 0).all(): bad("task index not integral")

# the path with a tab and a newline is one escaped field
files = set(t["file"])
esc = odd.replace("\t", "\\t").replace("\n", "\\n") + "/r.json"
if files != {src, esc}: bad(f"file column {files}, want {src!r} and {esc!r}")
t = t[t.file == src]

# a group-by keeps every test, none dropped for missing options
g = t.groupby(["test", "options"]).size()
if sorted(g.index.get_level_values(0)) != ["page_fault1", "page_fault3", "remap", "sendfile"]:
    bad(f"group-by lost tests: {list(g.index)}")
if not (t.loc[t.test.str.startswith("page_fault"), "options"] == "{}").all():
    bad("no-options is not {}")

# no metric a point cannot have
m = t.groupby("test")["metric"].agg(set)
for test in ("page_fault1", "page_fault3"):
    if m[test] & {"aux.rx_bytes", "aux.passes", "ipc", "path_length", "stat_p50"}:
        bad(f"{test} has impossible metrics {m[test]}")
if not {"aux.rx_bytes", "aux.tx_bytes"} <= m["sendfile"] or "aux.passes" not in m["remap"]:
    bad("aux metrics missing")

# the task rows of one interval sum to the point row: no double count
iv = t[t.interval.notna() & (t.metric == "ops_per_sec")]
keys = ["test", "mode", "tasks", "cgroup", "options", "run", "interval"]
tasks = iv[iv.scope == "task"].groupby(keys)["value"].sum()
point = iv[iv.scope == "point"].set_index(keys)["value"]
if len(point) == 0 or len(tasks) != len(point): bad("interval rows do not pair up")
d = (tasks - point.reindex(tasks.index)).abs() / point.reindex(tasks.index).clip(lower=1)
if (d > 1e-9).any(): bad("task rows do not sum to the point row")

# round trip with the file
doc = json.load(open(src))
got = t[(t.scope == "point") & (t.metric == "per_task_ops")].set_index(["test", "tasks", "run"])["value"]
n = 0
for p in doc["points"]:
    if p["status"] != "ok": continue
    v = got[(p["test"], p["tasks"], p["run"])]
    if abs(v - p["summary"]["per_task_ops_per_sec"]) > 1e-9 * v: bad(f"per_task_ops of {p['test']}")
    n += 1
if n != len(got): bad("per_task_ops rows and ok points differ in number")

# CSV and JSON lines hold the same rows
c = pd.read_csv("r.csv")
j = pd.read_json("r.json-lines", lines=True)
for name, o in (("csv", c), ("json-lines", j)):
    if list(o.columns) != cols: bad(f"{name} columns {list(o.columns)}")
    o = o[o.file == src]
    if len(o) != len(t) or abs(o["value"].sum() - t["value"].sum()) > 1e-9 * t["value"].sum():
        bad(f"{name} differs from tsv")
    if str(o["tasks"].dtype) != "int64": bad(f"{name} tasks is {o['tasks'].dtype}")
    if str(o["disturbed"].dtype) != "bool": bad(f"{name} disturbed is {o['disturbed'].dtype}")
    if (o["disturbed"].values != t["disturbed"].values).any(): bad(f"{name} disturbed differs from tsv")
if set(pd.read_csv("r.csv").file) != {src, odd + "/r.json"}: bad("csv path not quoted back")
print(f"pandas {pd.__version__}: {len(t)} rows, {len(g)} test/options groups")
PYEOF

# the disturbed column: one run marked as the runner marks it; its rows,
# every one of them, say so, and a mean that leaves it out is compare's
jq '.points |= map(.disturbed = [])
  | (.points[] | select(.test == "page_fault1" and .tasks == 2 and .run == 1) | .disturbed)
    = ["steal 5.0% (above 1%)"]' r.json >dist.json
"$CGSCALE" export -f csv dist.json >dist.csv 2>err || fail "export of a disturbed run: $(cat err)"
"$CGSCALE" compare -f json dist.json dist.json >dist-cmp.json 2>/dev/null
[ $? -le 1 ] || fail "compare of the disturbed file"
cmp_mean=$(jq '.points[] | select(.test == "page_fault1" and .tasks == 2) | .sides.A
	| select(.disturbed == 1) | .metrics.per_task_ops.mean' dist-cmp.json)
[ -n "$cmp_mean" ] || fail "compare did not leave the disturbed run out: $(jq -c '.points[].sides.A | [.runs, .ok, .disturbed]' dist-cmp.json)"
# an older file, never marked: marked by compare's own rules on export
jq '.points |= map(del(.disturbed))' r.json >unmarked.json
"$CGSCALE" export -f csv unmarked.json >unmarked.csv 2>err || fail "export of an unmarked file: $(cat err)"
"$CGSCALE" compare -f json unmarked.json unmarked.json >unmarked-cmp.json 2>/dev/null
$PY - "$cmp_mean" <<'PYEOF' || fail "pandas checks of the disturbed column failed"
import json, sys
import pandas as pd

def bad(msg):
    print("FAIL:", msg); sys.exit(1)
d = pd.read_csv("dist.csv")
if str(d["disturbed"].dtype) != "bool": bad(f"disturbed is {d['disturbed'].dtype}")
marked = d[d.disturbed]
if set(zip(marked.test, marked.tasks, marked.run)) != {("page_fault1", 2, 1)}:
    bad(f"rows marked disturbed: {set(zip(marked.test, marked.tasks, marked.run))}")
one = d[(d.test == "page_fault1") & (d.tasks == 2) & (d.run == 1)]
if not one.disturbed.all(): bad("not every row of the disturbed run is marked")
pt = d[(d.test == "page_fault1") & (d.tasks == 2) & (d.metric == "per_task_ops") & (d.status == "ok")]
clean = pt[~pt.disturbed]["value"].mean()
want = float(sys.argv[1])
if abs(clean - want) > 1e-9 * want: bad(f"mean without the disturbed run {clean}, compare's {want}")
if len(pt) != 2 or len(pt[~pt.disturbed]) != 1: bad(f"per_task_ops rows {len(pt)}")
# an unmarked file: the runs compare leaves out are the ones marked
u = pd.read_csv("unmarked.csv")
c = json.load(open("unmarked-cmp.json"))
left = {(p["test"], p["tasks"]): p["sides"]["A"]["disturbed"] for p in c["points"]}
got = u[(u.metric == "per_task_ops")].groupby(["test", "tasks"])["disturbed"].sum().to_dict()
for k, n in left.items():
    if got.get(k, 0) != n: bad(f"{k}: {got.get(k, 0)} runs marked on export, compare left out {n}")
print(f"pandas: disturbed column bool, mean without the disturbed run = compare's {want:.1f}"
      f" (with it {pt['value'].mean():.1f}); unmarked file: {sum(left.values())} runs marked as compare does")
PYEOF
# and R, where it is installed: read.csv and read.delim make it logical
if command -v Rscript >/dev/null; then
	cat >check.R <<'REOF'
d <- read.csv("dist.csv")
stopifnot(is.logical(d$disturbed), !anyNA(d$disturbed))
p <- subset(d, test == "page_fault1" & tasks == 2 & metric == "per_task_ops" & status == "ok")
m <- mean(p$value[!p$disturbed])
w <- as.numeric(commandArgs(TRUE)[1])
stopifnot(abs(m - w) <= 1e-9 * w, sum(p$disturbed) == 1, nrow(p) == 2)
t <- read.delim("r.tsv")
stopifnot(is.logical(t$disturbed), !anyNA(t$disturbed))
cat(sprintf("R %s: disturbed logical, mean without it %.1f = compare's\n", getRversion(), m))
REOF
	Rscript check.R "$cmp_mean" || fail "R could not leave the disturbed run out"
else
	echo "note: Rscript not installed: the R check did not run (apt-get install r-base-core)"
fi
# lkp-stats says how many runs of its means were disturbed
jq '.points |= map(select(.test == "page_fault1"))' dist.json >pf1.json
"$CGSCALE" export -f lkp-stats pf1.json >pf1.lkp 2>err || fail "lkp-stats of the disturbed file: $(cat err)"
grep -qx 'disturbed_runs: 1' pf1.lkp || fail "lkp-stats does not count the disturbed run: $(grep disturbed pf1.lkp)"

# the LKP stats keep LKP's names for the aux counters (results/export/lkp.c's
# lkp_aliases[]): sendfile's Throughput_Mbps is the mean rx Mbit/s per task,
# remap's remap.ops_per_sec the mean bogo-ops/s of all tasks; compare's own
# names for them are aux.rx_bytes and aux.passes (per task)
lkp_alias() { # test key aux 1|tasks
	jq --arg t "$1" '.points |= map(select(.test == $t))' r.json >"$1.json"
	"$CGSCALE" export -f lkp-stats "$1.json" >"$1.lkp" 2>err ||
		fail "lkp-stats of $1: $(cat err)"
	got=$(sed -n "s/^$2: //p" "$1.lkp")
	want=$(jq --arg a "$3" --arg x "$4" '[.points[] | select(.status == "ok")
		| .summary.aux[$a].per_task_rate * (if $x == "tasks" then .tasks else 1 end)]
		| add / length' "$1.json")
	[ -n "$got" ] && awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 0.006 && d > -0.006) }' ||
		fail "lkp-stats $1 $2 '$got', the result says $want"
	grep -q "^aux\\.$3: " "$1.lkp" || fail "lkp-stats of $1 has no aux.$3 key"
}
lkp_alias sendfile Throughput_Mbps rx_bytes 1
lkp_alias remap remap.ops_per_sec passes tasks

# bad input: exit 2, one line, nothing on stdout
"$CGSCALE" export -f xml r.json >out 2>err; rc=$?
[ $rc = 2 ] && [ ! -s out ] && [ "$(wc -l <err)" = 1 ] || fail "bad format: exit $rc, $(cat err)"
"$CGSCALE" export --tsv -f csv r.json >out 2>err; rc=$?
[ $rc = 2 ] && [ ! -s out ] || fail "--tsv with -f csv: exit $rc"
"$CGSCALE" export r.json nonexistent.json >out 2>err; rc=$?
[ $rc = 2 ] && [ ! -s out ] || fail "a missing input: exit $rc, $(wc -c <out) bytes written"
echo "PASS: export loads in pandas, tidy, round trip"
