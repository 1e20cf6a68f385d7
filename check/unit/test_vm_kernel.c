/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_vm_kernel.c - cgscale ab's --kernel LABEL=PATH[,config=FILE]
 * [,cmdline=ARGS]: a side's own command line (commas kept, last), its
 * place in qemu's -append after ab's and --cmdline, and the A/A test
 * (the same image, as the same file or the same bytes, and the same
 * command line) that ab refuses without --aa; and the console's tail a
 * failed boot reports: each line as a terminal shows it (the guest's
 * progress line rewrites itself with '\r', once read 512 bytes at a time
 * into chopped pieces), and the panic's reason kept when a stack trace
 * pushed it out of the last lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "runner/ab/vm.h"

static char dir[] = "/tmp/cgs-vm-kernel-XXXXXX";

/* A made-up bzImage: the boot-protocol header and nothing to boot. */
static void fake(const char *name, unsigned char tail)
{
	unsigned char b[4096] = { 0 };
	char p[256];
	FILE *f;

	memcpy(b + 0x202, "HdrS", 4);
	b[4095] = tail;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "we");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, sizeof(b), f), sizeof(b));
	assert_int_equal(fclose(f), 0);
}

static int open_k(struct cgs_vm_kernel *k, const char *fmt, ...)
{
	char spec[512], err[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(spec, sizeof(spec), fmt, ap);
	va_end(ap);
	rc = cgs_vm_kernel_open(k, spec, err, sizeof(err));
	if (rc)
		printf("# %s\n", err);
	return rc;
}

static void test_cmdline(void **state)
{
	struct cgs_vm_kernel k;
	struct cgs_vm_spec s = { .cpus = 2, .sockets = 1, .nodes_per_socket = 1, .cores = 2,
				 .threads = 1, .mem = 1 << 30, .cgroup = "v2",
				 .cmdline = "mitigations=off" };
	char buf[8192], *argv[96];
	int argc;

	(void)state;
	assert_int_equal(open_k(&k, "B=%s/a,config=%s/a,cmdline=init_on_free=1 isolcpus=1,2", dir, dir), 0);
	assert_string_equal(k.cmdline, "init_on_free=1 isolcpus=1,2");
	assert_non_null(strstr(k.config, "/a"));
	assert_null(strstr(k.config, "cmdline"));
	argc = cgs_vm_qemu_args(&s, &k, "/i", "/c", "/r", argv, 96, buf, sizeof(buf));
	assert_true(argc > 2);
	assert_string_equal(argv[argc - 2], "-append");
	/* the guest's RAM is touched on the host before the boot */
	{
		int objs = 0;

		for (int i = 0; i + 1 < argc; i++)
			if (!strcmp(argv[i], "-object")) {
				assert_string_equal(argv[i + 1], "memory-backend-ram,id=m0,size=1024M,prealloc=on");
				objs++;
			} else if (!strcmp(argv[i], "-machine")) {
				assert_string_equal(argv[i + 1], "pc,memory-backend=m0");
			}
		assert_int_equal(objs, 1);
	}
	/* ab's words, then --cmdline, then the side's own */
	assert_non_null(strstr(argv[argc - 1], "cgab_cgroup=v2 cgab_accel=tcg mitigations=off init_on_free=1 isolcpus=1,2"));
	cgs_vm_kernel_close(&k);
	/* ",config=" inside the command line is the command line's */
	assert_int_equal(open_k(&k, "A=%s/a,cmdline=x=1,config=y", dir), 0);
	assert_string_equal(k.cmdline, "x=1,config=y");
	assert_null(k.config);
	cgs_vm_kernel_close(&k);
	assert_int_not_equal(open_k(&k, "A=%s/a,cmdline=", dir), 0);
	cgs_vm_kernel_close(&k);
}

static void test_same_boot(void **state)
{
	struct cgs_vm_kernel a, b;

	(void)state;
	fake("b", 0);        /* the same bytes as a, another file */
	fake("c", 1);        /* one byte apart */
	assert_int_equal(open_k(&a, "A=%s/a", dir), 0);
	assert_int_equal(open_k(&b, "B=%s/a", dir), 0);
	assert_true(cgs_vm_same_boot(&a, &b));
	cgs_vm_kernel_close(&b);
	assert_int_equal(open_k(&b, "B=%s/b", dir), 0);
	assert_true(cgs_vm_same_boot(&a, &b));
	cgs_vm_kernel_close(&b);
	assert_int_equal(open_k(&b, "B=%s/c", dir), 0);
	assert_false(cgs_vm_same_boot(&a, &b));
	cgs_vm_kernel_close(&b);
	assert_int_equal(open_k(&b, "B=%s/a,cmdline=init_on_free=1", dir), 0);
	assert_false(cgs_vm_same_boot(&a, &b));
	cgs_vm_kernel_close(&b);
	cgs_vm_kernel_close(&a);
}

static void test_tail(void **state)
{
	char p[256], buf[4096], big[3000];
	FILE *f;

	(void)state;
	snprintf(p, sizeof(p), "%s/console", dir);
	f = fopen(p, "we");
	assert_non_null(f);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	fprintf(f, "[    0.1] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n");
	for (int i = 0; i < 20; i++)
		fprintf(f, "[    0.2]  frame_%d+0x1/0x2\n", i);
	fprintf(f, "%s\n", big);
	fprintf(f, "  page_fault1 1 task, run 1/2, measuring; 0:29 left\r  page_fault1 1 task, run 1/2, measuring; 0:28 left\r   \r\n");
	assert_int_equal(fclose(f), 0);
	cgs_vm_tail(p, 3, buf, sizeof(buf));
	/* the reason first, then the last 3 lines as shown */
	assert_true(!strncmp(buf, "[    0.1] Kernel panic - not syncing: VFS: Unable to mount root fs", 66));
	assert_non_null(strstr(buf, "\n...\n[    0.2]  frame_19+0x1/0x2\n"));
	assert_non_null(strstr(buf, "\n  page_fault1 1 task, run 1/2, measuring; 0:28 left"));
	assert_null(strstr(buf, "0:29 left"));
	assert_null(strstr(buf, "frame_18"));
	/* the long line is one line, not pieces */
	assert_int_equal(strspn(strstr(buf, "xxx"), "x"), 500);
	/* within the tail, the panic line is not repeated */
	cgs_vm_tail(p, 30, buf, sizeof(buf));
	assert_null(strstr(buf, "..."));
	assert_true(!strncmp(buf, "[    0.1] Kernel panic", 22));
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_same_boot),
		cmocka_unit_test(test_tail),
	};
	char p[256];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	fake("a", 0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	for (const char *n = "abc"; *n; n++) {
		snprintf(p, sizeof(p), "%s/%c", dir, *n);
		unlink(p);
	}
	rmdir(dir);
	return rc;
}
