#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 73-ci-pipeline.sh - the example GitLab pipeline (integrations/ci/
# gitlab-ci.yml) passes the checks GitLab's lint makes that need no
# server (the YAML loads, every job's stage is declared, every `needs`
# names a job, scripts are lists of strings, the JUnit report is the file
# its script writes), and the ones that make it a comparison: A is
# measured before B on one box (boot-a, measure-a, boot-b, measure-b,
# compare, in stage order), each measure job checks the kernel it runs,
# the runs are at least 4 a side, and compare goes along the kernel with
# --fail-on-inconclusive. Then its jobs run here in order with two stub
# kernels (a stub uname, boot commands that switch it, an apt-get that
# records, the real cgscale whose results name the stub kernel):
#   - short runs: compare cannot decide and the pipeline fails (exit 4);
#   - a boot that did not take: measure-b fails before measuring;
#   - both sides on one kernel: compare refuses (exit 3);
#   - fixed counts (one real run's, made equal or 25% slower): 0 and 1.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
$PY -c 'import yaml' 2>/dev/null || skip "python3-yaml missing: apt-get install python3-yaml"
command -v xmllint >/dev/null || skip "xmllint missing: apt-get install libxml2-utils"
command -v jq >/dev/null || skip "jq missing"
F=$REPO/integrations/ci/gitlab-ci.yml

# the jobs' scripts in stage order, one file each; structure checked
$PY - "$F" <<'PYEOF' || fail "gitlab-ci.yml: structure"
import re, shlex, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
def bad(m):
    print("FAIL:", m); sys.exit(1)
stages = doc.get("stages")
if not isinstance(stages, list) or not stages: bad("no stages list")
reserved = {"stages", "variables", "default", "include", "workflow", "image", "services"}
jobs = {k: v for k, v in doc.items() if k not in reserved and not k.startswith(".")}
want = ["build", "boot-a", "measure-a", "boot-b", "measure-b", "compare"]
if set(jobs) != set(want): bad(f"jobs {sorted(jobs)}")
for name, j in jobs.items():
    if j.get("stage") not in stages: bad(f"{name}: stage {j.get('stage')} not declared")
    sc = j.get("script")
    if not isinstance(sc, list) or not all(isinstance(x, str) for x in sc): bad(f"{name}: script")
    for n in j.get("needs", []):
        if n not in jobs: bad(f"{name}: needs unknown job {n}")
        if stages.index(jobs[n]["stage"]) >= stages.index(j["stage"]): bad(f"{name}: needs {n} of a later stage")
    junit = j.get("artifacts", {}).get("reports", {}).get("junit")
    if junit and not any(f"--junit {junit}" in x for x in sc): bad(f"{name}: junit {junit} not written")
idx = [stages.index(jobs[n]["stage"]) for n in want]
if idx != sorted(idx) or len(set(idx)) != len(idx): bad(f"not in order {want}: stages {idx}")
if "measure-a" not in jobs["boot-b"].get("needs", []):
    bad("boot-b does not wait for measure-a")
for side in "ab":
    if not any(f'"$(uname -r)" = "$CGSCALE_KERNEL_{side.upper()}"' in x for x in jobs[f"measure-{side}"]["script"]):
        bad(f"measure-{side} does not check the kernel it runs")
cmp = " ".join(jobs["compare"]["script"])
for w in ("--axis kernel", "--fail-on-inconclusive"):
    if w not in cmp: bad(f"compare lacks {w}")
runs = shlex.split(doc["variables"]["CGSCALE_RUN_OPTS"])
if "-r" not in runs or int(runs[runs.index("-r") + 1]) < 4: bad("fewer than 4 runs a side")
if not any(j.get("artifacts", {}).get("reports", {}).get("junit") for j in jobs.values()):
    bad("no JUnit report")
for k, v in doc["variables"].items():
    if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", k) or not isinstance(v, str): bad(f"variable {k}")
for n in want:
    open(f"job-{n}.sh", "w").write("\n".join(jobs[n]["script"]) + "\n")
# the pipeline's variables as its jobs see them, before a run overrides some
open("vars.sh", "w").write("".join(f"export {k}={shlex.quote(v)}\n" for k, v in doc["variables"].items()))
PYEOF
. ./vars.sh

# the stubs: a kernel that the boot commands switch, apt-get that only
# records, and cgscale whose results name the kernel uname says
mkdir -p bin deb
echo stub-a >kernel
cat >bin/uname <<'EOS'
#!/bin/sh
[ "$1" = -r ] && exec cat "$STUB_KERNEL_FILE"
exec /bin/uname "$@"
EOS
cat >bin/apt-get <<'EOS'
#!/bin/sh
echo "apt-get $*" >>"$STUB_LOG"
EOS
cat >bin/cgscale <<EOS
#!/bin/sh
if [ "\$1" = run ]; then
	for a in "\$@"; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
	"$CGSCALE" "\$@" || exit \$?
	jq --arg k "\$(uname -r)" '.kernel.release = \$k' "\$out" >"\$out.k" && mv "\$out.k" "\$out"
	exit 0
fi
exec "$CGSCALE" "\$@"
EOS
chmod +x bin/*
: >deb/cgscale_0.1.0_amd64.deb
export PATH="$T/bin:$PATH" STUB_KERNEL_FILE="$T/kernel" STUB_LOG="$T/apt.log"
# what a pipeline run overrides: short points, the stub kernels and boots
# (the compare options stay the file's)
export CGSCALE_TESTS=page_fault3
export CGSCALE_RUN_OPTS="-r 2 -t 1 -m process -w 0.1 -d 0.2 -i 0.1"
export CGSCALE_KERNEL_A=stub-a CGSCALE_KERNEL_B=stub-b
export CGSCALE_BOOT_A="echo stub-a >$T/kernel" CGSCALE_BOOT_B="echo stub-b >$T/kernel"
# job NAME: its script as the runner runs it (sh -e); its exit status
job() { sh -e "job-$1.sh" >"$1.out" 2>&1; }

for j in boot-a measure-a boot-b measure-b; do
	job $j || fail "job $j exit $?: $(tail -n 5 "$j.out")"
done
grep -q "apt-get install -y ./deb/cgscale_0.1.0_amd64.deb" apt.log || fail "the measure jobs do not install the package"
jq -e '.kernel.release == "stub-a"' results/a/result.json >/dev/null &&
	jq -e '.kernel.release == "stub-b"' results/b/result.json >/dev/null || fail "the results do not name the stub kernels"
# 2 runs a side: compare cannot decide, and the pipeline must not pass
job compare
rc=$?
[ $rc = 4 ] || fail "compare of 2 runs a side exited $rc, want 4 (INCONCLUSIVE fails): $(tail -n 3 compare.out)"
xmllint --noout compare.xml || fail "compare.xml is not well-formed"
grep -q '<testcase classname="cgscale.page_fault3' compare.xml || fail "compare.xml has no test case"
[ -s compare.html ] || fail "no compare.html"
echo "ok: short runs: compare exit 4, the pipeline fails ($(grep -c '<testcase' compare.xml) JUnit cases)"

# a boot of B that did not take (the box still runs A): measure-b fails
echo stub-a >kernel
CGSCALE_BOOT_B=true job boot-b || fail "boot-b: $(cat boot-b.out)"
job measure-b && fail "measure-b measured kernel A as B"
grep -q "runs stub-a, not kernel B (stub-b)" measure-b.out || fail "measure-b does not say why: $(cat measure-b.out)"
echo "ok: a boot that fell back fails measure-b before it measures"

# fixed counts: one real run's, 10000 ops an interval (+k in run k), on
# both sides, then B 25% slower; each side its stub kernel's
fix() {
	jq --arg k "$2" '.kernel.release = $k | .points |= (to_entries | map(.key as $i | .value
		| .samples.t_ns = [0, 100000000, 200000000]
		| .samples.ops = [[0, 10000 + $i, 10000 + $i]] | .samples.idle_pct = [null, 0, 0]
		| .samples.steal_pct = [null, 0, 0] | .samples.iowait_pct = [null, 0, 0]
		| .status = "ok" | .disturbed = []))' "$1" >"$1.fixed" && mv "$1.fixed" "$1"
}
CGSCALE_RUN_OPTS="-r 5 -t 1 -m process -w 0 -d 0.2 -i 0.1" sh -c \
	'echo stub-a >kernel && sh -e job-measure-a.sh && echo stub-b >kernel && sh -e job-measure-b.sh' \
	>fixed.out 2>&1 || fail "the runs for fixed counts: $(tail -n 3 fixed.out)"
fix results/a/result.json stub-a
fix results/b/result.json stub-b
job compare || fail "equal counts on two kernels: compare exit $?: $(tail -n 3 compare.out)"
jq '.points[].samples.ops |= map(map(. * 3 / 4 | floor))' results/b/result.json >b.slow &&
	mv b.slow results/b/result.json
job compare
rc=$?
[ $rc = 1 ] || fail "B 25% slower: compare exit $rc, want 1: $(tail -n 3 compare.out)"
grep -q '<failure' compare.xml || fail "the REGRESSION is no failed JUnit case"
# both sides on one kernel: nothing differs along --axis kernel
jq '.kernel.release = "stub-a"' results/b/result.json >b.same && mv b.same results/b/result.json
job compare
rc=$?
[ $rc = 3 ] || fail "one kernel on both sides: compare exit $rc, want 3: $(tail -n 3 compare.out)"
grep -q "nothing differs between the sides along --axis kernel" compare.out ||
	fail "compare does not say why: $(tail -n 3 compare.out)"
# the Jenkinsfile of the same flow: the same stages in order, the same
# checks and compare, and the JUnit report published in post { always }
# (a failing compare fails its stage; only `always` still publishes why)
J=$REPO/integrations/ci/Jenkinsfile
$PY - "$J" <<'PYEOF' || fail "Jenkinsfile: shape"
import re, sys
t = re.sub(r"//[^\n]*", "", open(sys.argv[1]).read())
def bad(m):
    print("FAIL:", m); sys.exit(1)
names = re.findall(r"stage\('([^']+)'\)", t)
if names != ["build", "boot-a", "measure-a", "boot-b", "measure-b", "compare"]: bad(f"stages {names}")
if t.count("{") != t.count("}"): bad("braces do not balance")
post = t[t.rfind("post {"):] if "post {" in t else ""
if not re.search(r"always\s*\{[^}]*junit[^}]*compare\.xml", post): bad("no junit of compare.xml in post { always }")
for side in "AB":
    if f'test "$(uname -r)" = "$KERNEL_{side}"' not in t: bad(f"measure-{side.lower()} does not check its kernel")
if not re.search(r"cgscale compare --axis kernel --fail-on-inconclusive", t): bad("compare lacks --axis kernel --fail-on-inconclusive")
m = re.search(r"name: 'RUN_OPTS', defaultValue: '([^']*)'", t)
if not m or int(re.search(r"-r (\d+)", m.group(1)).group(1)) < 4: bad("fewer than 4 runs a side")
PYEOF
echo "ok: the Jenkinsfile has the same stages, checks and compare, and publishes JUnit in post { always }"
echo "PASS: the pipeline measures A then B, checks each kernel, and goes green only on a decision (0 and 1 on fixed counts, 3 on one kernel, 4 undecided)"
