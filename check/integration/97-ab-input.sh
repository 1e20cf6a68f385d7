#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgscale ab's inputs as root on a box others can write (issue 40, cases
# 1, 2 and 8), without a real boot, under both builds:
#   - a link planted at the initramfs' old name beside -o is never written
#     through: the initramfs are built in a folder ab makes fresh
#     (mkdtemp) and removes, so the victim keeps its bytes;
#   - a label is a name, not a path: "../esc" is bad input (exit 2, one
#     line), and nothing is created outside -o;
#   - a kernel that is a FIFO with no writer is refused at once (exit 2),
#     never a hang in open() with the signals that end the run blocked;
#   - a link planted at logs/A-1.console (qemu wrote its console through
#     such a name) is left alone: the console is kept beside it, said;
#   - the same image with the same command line on both sides (one file,
#     or a copy) is refused unless --aa asks for an A/A (issue 38), and
#     ab.json says each side's command line and whether it was an A/A;
#   - issue 38's defects that need no boot: an empty console's hint, the
#     warning that fewer than 4 boots a side give no verdict, missing boots
#     named, an -o that holds an interrupted ab refused as such, and a
#     helper (dpkg-deb) that runs with SIGINT unblocked and ends with ab
#     at once on SIGINT (exit 130); a guest whose run fell back from what
#     it was asked (a stub qemu replies) is a missing boot, not an ok one;
#     a guest's run that refuses its arguments stops ab after one boot.
# The "kernel" is a made-up bzImage header (HdrS, an empty payload): it
# passes ab's checks and qemu refuses it, which is all the first case needs.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (Debian: qemu-system-x86)"
command -v busybox >/dev/null || skip "no busybox (Debian: busybox-static)"
command -v jq >/dev/null || skip "no jq (scripts/deps.sh test)"
python3 -c "
b = bytearray(4096); b[0x202:0x206] = b'HdrS'; open('fake', 'wb').write(b)" || fail "python3"
mkfifo fifo || fail "mkfifo"
for C in "$CGSCALE" "${CGSCALE_SAN:-$CGSCALE}"; do
	rm -rf o1 o2 o3 o4 o5 o6 o7 o8 o9 esc victim mark
	echo victim >victim
	mkdir -p o1/logs
	ln -s "$T/victim" o1/.ab-initrd-A.cpio
	ln -s "$T/victim" o1/logs/A-1.console      # qemu once opened this name itself
	timeout 300 "$C" ab --kernel A=fake --kernel B=fake,cmdline=init_on_free=1 --boots 1 \
		--boot-timeout 20s -o o1 -- -t 1 -d 0.2 page_fault1 >o1.out 2>&1
	rc=$?
	[ $rc != 124 ] || fail "ab with a kernel qemu refuses did not end in 300 s"
	[ "$(cat victim)" = victim ] || fail "ab wrote through the planted link: victim is $(wc -c <victim) bytes"
	[ -L o1/.ab-initrd-A.cpio ] && [ -L o1/logs/A-1.console ] || fail "ab removed or replaced a planted link"
	[ -z "$(ls -A o1 | grep '^\.ab-[a-z0-9]*$')" ] || fail "ab left its temporary folder: $(ls -A o1)"
	grep -q "cannot keep A-1.console in o1/logs: File exists" o1.out ||
		fail "the console not kept beside a planted name was not said: $(cat o1.out)"
	jq -e '.kernels.B.cmdline == "init_on_free=1" and .kernels.A.cmdline == null and .aa == false' o1/ab.json >/dev/null ||
		fail "ab.json does not say each side's command line: $(jq -c .kernels o1/ab.json)"

	timeout 20 "$C" ab --kernel ../esc=fake --kernel B=fake -o o2/ -- -t 1 page_fault1 >/dev/null 2>err.txt
	rc=$?
	[ $rc = 2 ] || fail "label ../esc: exit $rc, want 2: $(cat err.txt)"
	[ "$(wc -l <err.txt)" = 1 ] && grep -q "the label names the results' folder" err.txt ||
		fail "label ../esc: not one line naming the label: $(cat err.txt)"
	[ ! -e esc ] && [ ! -e o2 ] || fail "label ../esc: something was created: $(ls -A)"

	timeout 20 "$C" ab --kernel A=fifo --kernel B=fake -o o3/ -- -t 1 page_fault1 >/dev/null 2>err.txt
	rc=$?
	[ $rc != 124 ] || fail "ab --kernel A=FIFO hung in open()"
	[ $rc = 2 ] && grep -q "fifo is not a regular file" err.txt || fail "--kernel A=FIFO: exit $rc: $(cat err.txt)"
	[ ! -e o3 ] || fail "--kernel A=FIFO: o3 was created"
	# the same image with the same command line, as one file or a copy:
	# an accidental A/A, refused before anything is made (issue 38)
	cp fake fake2
	for b in fake fake2; do
		timeout 20 "$C" ab --kernel A=fake --kernel B=$b -o o4/ -- -t 1 page_fault1 >/dev/null 2>err.txt
		rc=$?
		[ $rc = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "boot the same image .* with the same command line: an A/A control.* add --aa" err.txt ||
			fail "A=fake B=$b: exit $rc, not the one-line A/A refusal: $(cat err.txt)"
		[ ! -e o4 ] || fail "A=fake B=$b: o4 was created"
	done
	# --aa asks for it, and says so; --aa with two different sides is refused
	timeout 300 "$C" ab --aa --kernel A=fake --kernel B=fake2 --boots 1 --boot-timeout 20s -o o5 \
		-- -t 1 -d 0.2 page_fault1 >o5.out 2>&1
	jq -e '.aa == true' o5/ab.json >/dev/null || fail "--aa: ab.json does not say so: $(cat o5.out)"
	timeout 20 "$C" ab --aa --kernel A=fake --kernel B=fake,cmdline=x=1 -o o4/ -- -t 1 page_fault1 >/dev/null 2>err.txt
	rc=$?
	[ $rc = 2 ] && grep -q "^cgscale ab: --aa: --kernel A and --kernel B differ" err.txt ||
		fail "--aa with sides that differ: exit $rc: $(cat err.txt)"
	# what a boot that cannot start says: the empty console's hint, the
	# warning that 1 boot a side gives no verdict, the missing boots named
	grep -q "the console is empty: .*loglevel=7" o1.out || fail "no hint for an empty console: $(cat o1.out)"
	grep -q "WARNING: --boots 1: .* compare needs 4 a side" o1.out || fail "no warning about --boots 1: $(cat o1.out)"
	grep -q "missing boot: B-1: " o1.out || fail "the missing boot B-1 not named: $(cat o1.out)"
	# an -o DIR with an interrupted ab's ab.json: refused, saying so
	mkdir -p o6 && echo '{"interrupted": "Interrupt", "boots": []}' >o6/ab.json
	timeout 20 "$C" ab --kernel A=fake --kernel B=fake,cmdline=x=1 -o o6 -- -t 1 page_fault1 >/dev/null 2>err.txt
	rc=$?
	[ $rc = 2 ] && grep -q "an interrupted ab is there" err.txt || fail "-o with an interrupted ab: exit $rc: $(cat err.txt)"
	# a helper ab starts (dpkg-deb, here a stub) runs with no signal
	# blocked, and SIGINT while it runs ends ab at once with 130, the
	# helper ended too (it once waited for the first boot)
	mkdir -p bin && rm -f mark
	cat >bin/dpkg-deb <<-EOS
	#!/bin/sh
	{ echo \$\$; grep SigBlk /proc/self/status; } >"$T/mark.tmp" && mv "$T/mark.tmp" "$T/mark"
	exec sleep 120
	EOS
	chmod +x bin/dpkg-deb
	printf '!<arch>\nnot really a package' >k.deb
	PATH="$T/bin:$PATH" "$C" ab --kernel A=k.deb --kernel B=fake -o o7 -- -t 1 page_fault1 >/dev/null 2>err.txt &
	ab=$!
	wait_until 60 test -s mark || fail "the dpkg-deb stub never ran: $(cat err.txt)"
	stub=$(head -n 1 mark)
	blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' mark)
	[ $(( 0x$blk & 0x4002 )) = 0 ] || fail "ab's helper ran with SIGINT/SIGTERM blocked (SigBlk $blk)"
	kill -INT $ab
	wait_until 30 sh -c "! kill -0 $ab 2>/dev/null" || { kill -9 $ab; fail "ab did not stop on SIGINT during the unpack"; }
	wait $ab
	rc=$?
	[ $rc = 130 ] || fail "SIGINT during the unpack: exit $rc, want 130: $(cat err.txt)"
	wait_until 10 sh -c "! kill -0 $stub 2>/dev/null" || fail "the helper $stub outlived ab"
	# a guest that could not give what the run asked (its run fell back:
	# environment.cgroup.note, as --vm-cgroup v1 on a kernel without v1
	# memory) is not ok: no result for compare, the result kept in logs/,
	# the note said, ab exits 1 (it once counted as a good boot). The
	# "qemu" is a stub that replies as the guest's init does.
	rm -rf o8
	cat >bin/qemu-system-x86_64 <<-'EOS'
	#!/bin/sh
	n=0
	for a in "$@"; do
		case "$a" in file:*) n=$((n + 1)); [ $n = 2 ] && reply=${a#file:} ;; esac
	done
	{ echo "kernel: 6.12.0-stub"; echo "rc: 0"; echo "=== result"
	  echo '{"format":"cgscale-result","environment":{"cgroup":{"note":"no cgroup of our own (memory: Unknown subsys name): the tasks run in the runner'"'"'s cgroup (depth 0)"}},"points":[]}'
	  echo "=== end"; echo "=== done"; } >"$reply"
	exit 0
	EOS
	chmod +x bin/qemu-system-x86_64
	PATH="$T/bin:$PATH" timeout 120 "$C" ab --kernel A=fake --kernel B=fake,cmdline=x=1 --boots 1 \
		--vm-cgroup v1 -o o8 -- -t 1 page_fault1 >o8.out 2>&1
	rc=$?
	[ $rc = 1 ] || fail "a guest that fell back: exit $rc, want 1: $(tail -n 5 o8.out)"
	grep -q "A-1: the guest could not give what the run asked.*Unknown subsys name" o8.out ||
		fail "the fallback's note was not said: $(cat o8.out)"
	grep -q "missing boot: A-1" o8.out || fail "the boot that fell back is not named missing: $(cat o8.out)"
	[ -s o8/logs/A-1.json ] && [ ! -e o8/A/A-1.json ] ||
		fail "the fallen-back result is not kept in logs/ alone: $(ls -R o8)"
	jq -e '.boots[0].result == null and (.boots[0].status | test("Unknown subsys")) and .boots[0].kept != null' \
		o8/ab.json >/dev/null || fail "ab.json does not say the boot fell back: $(jq -c '.boots[0]' o8/ab.json)"
	# a guest's run that refuses its arguments (exit 2): ab stops after
	# that boot (it once booted every other one to the same end), exit 2
	rm -rf o9
	sed -i 's/^{ echo "kernel: 6.12.0-stub"; echo "rc: 0"; echo "=== result"$/{ echo "kernel: 6.12.0-stub"; echo "rc: 2"; echo "=== done"; } >"$reply"; exit 0; {/' bin/qemu-system-x86_64
	PATH="$T/bin:$PATH" timeout 120 "$C" ab --kernel A=fake --kernel B=fake,cmdline=x=1 --boots 2 \
		-o o9 -- -t 1 page_fault1 >o9.out 2>&1
	rc=$?
	[ $rc = 2 ] || fail "a guest run that refused its arguments: exit $rc, want 2: $(tail -n 5 o9.out)"
	grep -q "the guest's run refused its arguments" o9.out || fail "not said: $(cat o9.out)"
	[ "$(jq '.boots | length' o9/ab.json)" = 1 ] || fail "ab booted on after the guest refused its arguments: $(jq -c '[.boots[].name]' o9/ab.json)"
	rm -f bin/qemu-system-x86_64
	echo "$C: planted links untouched, ../esc, a FIFO and an accidental A/A refused; --aa kept; an empty console, 1 boot a side, an interrupted -o, SIGINT during a helper and a guest that fell back said"
done
exit 0
