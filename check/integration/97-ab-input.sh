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
#     never a hang in open() with the signals that end the run blocked.
# The "kernel" is a made-up bzImage header (HdrS, an empty payload): it
# passes ab's checks and qemu refuses it, which is all the first case needs.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (Debian: qemu-system-x86)"
command -v busybox >/dev/null || skip "no busybox (Debian: busybox-static)"
python3 -c "
b = bytearray(4096); b[0x202:0x206] = b'HdrS'; open('fake', 'wb').write(b)" || fail "python3"
mkfifo fifo || fail "mkfifo"
for C in "$CGSCALE" "${CGSCALE_SAN:-$CGSCALE}"; do
	rm -rf o1 o2 o3 esc victim
	echo victim >victim
	mkdir o1
	ln -s "$T/victim" o1/.ab-initrd-A.cpio
	timeout 300 "$C" ab --kernel A=fake --kernel B=fake --boots 1 --boot-timeout 20s -o o1 \
		-- -t 1 -d 0.2 page_fault1 >o1.out 2>&1
	rc=$?
	[ $rc != 124 ] || fail "ab with a kernel qemu refuses did not end in 300 s"
	[ "$(cat victim)" = victim ] || fail "ab wrote through the planted link: victim is $(wc -c <victim) bytes"
	[ -L o1/.ab-initrd-A.cpio ] || fail "ab removed or replaced the planted link"
	[ -z "$(ls -A o1 | grep '^\.ab-[A-Za-z0-9]\{6\}$')" ] || fail "ab left its temporary folder: $(ls -A o1)"

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
	echo "$C: planted link untouched, ../esc and a FIFO refused"
done
exit 0
