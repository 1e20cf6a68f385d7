/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_profile.c - the profile plumbing of lib/: folded stacks (parse,
 * bound with the total kept, self/children as perf counts them, LKP call
 * traces), symbol tables (a synthetic kallsyms, hidden addresses, this
 * binary's own ELF symbols) and the perf ring buffer on a real software
 * sampling event of this process (skipped where perf_event refuses).
 */
#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/folded.h"
#include "lib/perf_ring.h"
#include "lib/symtab.h"
#include "runner/observe/profile/profile.h"

static uint64_t count_of(const struct cgs_stacks *s, const char *stack)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].stack, stack))
			return s->v[i].count;
	return UINT64_MAX;
}

static void test_parse_and_bound(void **state)
{
	struct cgs_stacks s = { 0 };
	size_t bad = 0;

	(void)state;
	assert_int_equal(cgs_stacks_parse(&s, "a;b;c 50\na;b 30\nx;y 15\n\na;b;c 0\nz 5", &bad), 0);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.total, 100);
	cgs_stacks_sort(&s);
	assert_string_equal(s.v[0].stack, "a;b;c");
	assert_string_equal(s.v[3].stack, "z");
	/* 90% is covered by the first three; the fourth becomes [other] */
	assert_int_equal(cgs_stacks_bound(&s, 0.9, 100), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.v[3].stack, CGS_FOLDED_OTHER);
	assert_int_equal(s.v[3].count, 5);
	/* at most 1 stack: 50 kept, 50 in [other], the total unchanged */
	assert_int_equal(cgs_stacks_bound(&s, 1.0, 1), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.v[0].count + s.v[1].count, 100);
	assert_int_equal(s.v[1].count, 50);
	cgs_stacks_free(&s);

	assert_int_equal(cgs_stacks_parse(&s, "a;b 1\nno-count\n", &bad), -EINVAL);
	assert_int_equal(bad, 2);
	cgs_stacks_free(&s);
	assert_int_equal(cgs_stacks_parse(&s, "a;b -3\n", &bad), -EINVAL);
	assert_int_equal(bad, 1);
	cgs_stacks_free(&s);
}

static const struct cgs_symcount *sym(const struct cgs_symcounts *c,
				      const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	fail_msg("no symbol %s", name);
	return NULL;
}

static void test_self_children(void **state)
{
	struct cgs_stacks s = { 0 };
	struct cgs_symcounts c;

	(void)state;
	/* main -> f -> g (recursion f -> f counted once per sample) */
	assert_int_equal(cgs_stacks_parse(&s, "main;f;g 6\nmain;f;f 3\nmain 1\nmain;h 10\n", NULL), 0);
	assert_int_equal(cgs_stacks_symbols(&s, &c), 0);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].name, "main");       /* sorted by children */
	assert_int_equal(sym(&c, "main")->children, 20);
	assert_int_equal(sym(&c, "main")->self, 1);
	assert_int_equal(sym(&c, "f")->children, 9);
	assert_int_equal(sym(&c, "f")->self, 3);
	assert_int_equal(sym(&c, "g")->children, 6);
	assert_int_equal(sym(&c, "g")->self, 6);
	assert_int_equal(sym(&c, "h")->self, 10);
	cgs_symcounts_free(&c);
	cgs_stacks_free(&s);
}

static void test_calltraces(void **state)
{
	struct cgs_stacks s = { 0 }, t;

	(void)state;
	assert_int_equal(cgs_stacks_parse(&s, "e;s;a;b 4\ne;s;a;c 6\ne;s;a 2\n", NULL), 0);
	assert_int_equal(cgs_stacks_calltraces(&s, 3, &t), 0);
	assert_int_equal(t.total, 12);
	/* leaf first, up to 3 frames, once per sample */
	assert_int_equal(count_of(&t, "b.a.s"), 4);
	assert_int_equal(count_of(&t, "c.a.s"), 6);
	assert_int_equal(count_of(&t, "a.s.e"), 12);
	assert_int_equal(count_of(&t, "s.e"), 12);
	assert_int_equal(count_of(&t, "e"), 12);
	assert_int_equal(t.n, 5);
	cgs_stacks_free(&t);
	cgs_stacks_free(&s);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_kallsyms(void **state)
{
	char path[] = "/tmp/cgs-test-kallsyms.XXXXXX";
	struct cgs_symtab t = { 0 };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, "ffffffff81000000 T _stext\n"
			 "ffffffff81001000 t exc_page_fault\n"
			 "ffffffff81000800 D some_data\n"
			 "ffffffff81002000 T shmem_fallocate\t[shmem]\n"
			 "ffffffff81003000 T _etext\n");
	assert_int_equal(cgs_symtab_load_kallsyms(&t, path), 0);
	assert_false(t.hidden);
	assert_int_equal(t.n, 4);        /* data skipped */
	assert_string_equal(cgs_symtab_lookup(&t, 0xffffffff81001234ULL), "exc_page_fault");
	assert_string_equal(cgs_symtab_lookup(&t, 0xffffffff81000900ULL), "_stext");
	assert_string_equal(cgs_symtab_lookup(&t, 0xffffffff81002000ULL), "shmem_fallocate");
	assert_null(cgs_symtab_lookup(&t, 0xffffffff80000000ULL));
	assert_null(cgs_symtab_lookup(&t, 0xffffffff81004000ULL));  /* past the end */
	cgs_symtab_free(&t);
	write_file(path, "0000000000000000 T _stext\n0000000000000000 t exc_page_fault\n");
	assert_int_equal(cgs_symtab_load_kallsyms(&t, path), 0);
	assert_true(t.hidden);
	assert_int_equal(t.n, 0);
	cgs_symtab_free(&t);
	unlink(path);
	assert_int_equal(cgs_symtab_load_kallsyms(&t, path), -ENOENT);
}

static int first_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uint64_t *)arg = info->dlpi_addr;
	return 1;
}

/* Our own functions, found by address. */
__attribute__((noinline)) void cgs_test_marker_fn(void);
__attribute__((noinline)) void cgs_test_marker_fn(void)
{
	__asm__ volatile("");
}

static void test_own_elf(void **state)
{
	struct cgs_symtab t = { 0 };
	uint64_t bias = 0;

	(void)state;
	dl_iterate_phdr(first_bias, &bias);
	assert_int_equal(cgs_symtab_load_elf(&t, "/proc/self/exe", bias), 0);
	assert_string_equal(cgs_symtab_lookup(&t, (uint64_t)(uintptr_t)cgs_test_marker_fn),
			    "cgs_test_marker_fn");
	assert_string_equal(cgs_symtab_lookup(&t, (uint64_t)(uintptr_t)test_own_elf + 1),
			    "test_own_elf");
	cgs_symtab_free(&t);
	assert_int_equal(cgs_symtab_load_elf(&t, "/proc/self/status", 0), -ENOEXEC);
	cgs_symtab_free(&t);
}

/* User frames, from a task's /proc/PID/maps (here this process's own):
 * its functions by name, an address in the vDSO that no symbol covers
 * "[vdso]" (perf's name), any other unknown one "[user]"; no process, no
 * symbols. */
static void test_user_frames(void **state)
{
	static struct cgs_profile_set ps;
	uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
	char buf[32], *heap = malloc(16);

	(void)state;
	memset(&ps, 0, sizeof(ps));
	ps.on = true;
	ps.user_only = true;     /* no kallsyms needed */
	cgs_profile_prepare(&ps);
	assert_int_equal(cgs_profile_task_symbols(&ps, getpid()), 0);
	assert_string_equal(cgs_profile_frame_name(&ps, (uint64_t)(uintptr_t)test_own_elf + 1,
						   false, buf, sizeof(buf)), "test_own_elf");
	assert_string_equal(cgs_profile_frame_name(&ps, (uint64_t)(uintptr_t)heap, false,
						   buf, sizeof(buf)), "[user]");
	if (vdso)   /* its ELF header: inside the image, in no function */
		assert_string_equal(cgs_profile_frame_name(&ps, vdso + 4, false, buf,
							   sizeof(buf)), "[vdso]");
	assert_string_equal(cgs_profile_frame_name(&ps, 0xffffffff81000000ULL, true, buf,
						   sizeof(buf)), "0xffffffff81000000");
	/* libc's own, as mapped here */
	assert_string_equal(cgs_profile_frame_name(&ps, (uint64_t)(uintptr_t)getpid + 1,
						   false, buf, sizeof(buf)), "getpid");
	assert_int_equal(cgs_profile_task_symbols(&ps, INT32_MAX), -ENOENT);
	assert_string_equal(cgs_profile_frame_name(&ps, (uint64_t)(uintptr_t)test_own_elf + 1,
						   false, buf, sizeof(buf)), "[user]");
	free(heap);
	cgs_profile_set_free(&ps);
}

struct seen {
	unsigned samples, other;
	uint64_t last_ip;
};

static void on_rec(const struct perf_event_header *h, void *arg)
{
	struct seen *s = arg;

	if (h->type == PERF_RECORD_SAMPLE && h->size >= sizeof(*h) + 8) {
		s->samples++;
		s->last_ip = *(const uint64_t *)(h + 1);
	} else {
		s->other++;
	}
}

static void test_ring(void **state)
{
	struct perf_event_attr a = { 0 };
	struct cgs_perf_ring r;
	struct seen s = { 0 };
	volatile uint64_t x = 0;
	long n;
	int fd;

	(void)state;
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 100000;           /* every 100 us of our CPU time */
	a.sample_type = PERF_SAMPLE_IP;
	a.exclude_kernel = 1;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		print_message("perf_event_open: %s: ring test skipped\n", strerror(errno));
		skip();
	}
	assert_int_equal(cgs_perf_ring_map(&r, fd, 16), 0);
	assert_int_equal(r.data_size, 16 * (size_t)sysconf(_SC_PAGESIZE));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/* about 3000 samples of 16 bytes: the 64 KiB ring wraps */
	for (int round = 0; round < 6; round++) {
		for (uint64_t i = 0; i < 20000000; i++)
			x += i;
		n = cgs_perf_ring_drain(&r, on_rec, &s);
		assert_true(n >= 0);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	cgs_perf_ring_drain(&r, on_rec, &s);
	assert_true(s.samples > 50);
	assert_true(s.last_ip != 0);
	assert_int_equal(cgs_perf_ring_drain(&r, on_rec, &s), 0);  /* empty now */
	cgs_perf_ring_unmap(&r);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_bound),
		cmocka_unit_test(test_self_children),
		cmocka_unit_test(test_calltraces),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_own_elf),
		cmocka_unit_test(test_user_frames),
		cmocka_unit_test(test_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
