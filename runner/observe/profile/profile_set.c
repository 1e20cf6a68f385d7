/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_set.c - the run-wide set-up of the sampled profile (profile.h):
 * the rate, the event, what this machine and user may sample, and the
 * symbols that name the frames: the kernel's, cgscale's own, and those of
 * every shared object and of the vDSO mapped in the process that runs the
 * points, which its tasks (threads, or forks that exec nothing) have at
 * the same addresses, so a clock read in the vDSO or a libc call is named
 * rather than "[user]".
 */
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#ifdef __x86_64__
#include <asm/perf_regs.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/opt.h"
#include "lib/util.h"
#include "runner/observe/profile/profile.h"

static int perf_open(struct perf_event_attr *a, pid_t pid)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* The rate: "" the default, else 1..perf_event_max_sample_rate. */
static int parse_rate(struct cgs_profile_set *ps, const char *arg, char *err,
		      size_t errlen)
{
	char line[64];
	int64_t max = 0;

	ps->hz = CGS_PROFILE_DEFAULT_HZ;
	if (*arg) {
		if (cgs_parse_int(arg, &ps->hz) || ps->hz < 1)
			return cgs_errf(err, errlen, -EINVAL,
					"--profile=%s: the rate must be a whole number of Hz >= 1, e.g. --profile=397",
					arg);
	}
	if (!cgs_read_line("/proc/sys/kernel/perf_event_max_sample_rate", line,
			   sizeof(line)))
		max = strtoll(line, NULL, 10);
	if (max > 0 && ps->hz > max)
		return cgs_errf(err, errlen, -EINVAL,
				"--profile=%" PRId64 ": above kernel.perf_event_max_sample_rate (%" PRId64
				"); give a rate <= %" PRId64 " or raise the sysctl",
				ps->hz, max, max);
	return 0;
}

/* Open the event on the runner itself: does it work with @a? */
static int probe(struct perf_event_attr *a)
{
	int fd = perf_open(a, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Can @a sample here, in kernel mode too or else in user mode only? */
static int probe_modes(struct perf_event_attr *a, bool *user_only)
{
	int rc = probe(a);

	*user_only = false;
	if (rc != -EACCES && rc != -EPERM)
		return rc;
	a->exclude_kernel = 1;
	a->exclude_callchain_kernel = 1;
	rc = probe(a);
	if (!rc)
		*user_only = true;
	return rc;
}

/* cycles where there is a PMU, else cpu-clock; kernel mode where allowed. */
static int pick_event(struct cgs_profile_set *ps, char *err, size_t errlen)
{
	struct perf_event_attr *a = &ps->attr;
	char par[32] = "?";
	int rc;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	a->freq = 1;
	a->sample_freq = (uint64_t)ps->hz;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
#ifdef __x86_64__
	/* the user IP from the registers saved at kernel entry, not a walk
	 * of the user stack: cheaper per sample, and the only user frame
	 * kept anyway */
	a->sample_type |= PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = 1ULL << PERF_REG_X86_IP;
	a->exclude_callchain_user = 1;
#endif
	a->disabled = 1;
	ps->event = "cycles";
	rc = probe_modes(a, &ps->user_only);
	if (rc == -ENOENT || rc == -EOPNOTSUPP || rc == -ENODEV) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->exclude_kernel = a->exclude_callchain_kernel = 0;
		ps->event = "cpu-clock";
		rc = probe_modes(a, &ps->user_only);
	}
	if (rc)
		return cgs_errf(err, errlen, rc, "--profile: cannot sample %s here: %s%s",
				ps->event, strerror(-rc),
				rc == -EINVAL ? " (is the rate above kernel.perf_event_max_sample_rate?)" :
				rc == -EACCES ? "; run as root, give CAP_PERFMON or sysctl kernel.perf_event_paranoid=1" : "");
	if (ps->user_only) {
		cgs_read_line("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
		ps->note = cgs_fmt("perf_event_paranoid is %s and cgscale is not root: kernel samples are not allowed, so the profile is of user mode only; for kernel frames run as root, give CAP_PERFMON or sysctl kernel.perf_event_paranoid=1",
				   par);
	}
	return 0;
}

/* The size of the ELF image at @base: its section headers come last. */
static size_t image_size(const void *base)
{
	const ElfW(Ehdr) *eh = base;

	return eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
}

/* One line of /proc/PID/maps: an ELF file mapped from offset 0 gives its
 * function symbols; the vDSO (the same image in every process: ours,
 * read from memory; __vdso_* only, its aliases would take libc's names)
 * its own. */
static void map_syms(struct cgs_profile_set *ps, pid_t pid, const char *line)
{
	const void *vdso = (const void *)getauxval(AT_SYSINFO_EHDR);
	unsigned long lo, hi, off;
	char file[PATH_MAX + 32];
	int n = 0;

	if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &off, &n) < 3 || !n)
		return;
	line += n;
	if (vdso && !strncmp(line, "[vdso]", 6)) {
		cgs_symtab_load_elf_image(&ps->usyms, vdso, image_size(vdso), lo, "__vdso_");
		ps->vdso_lo = lo;
		ps->vdso_hi = lo + image_size(vdso);
	} else if (line[0] == '/' && off == 0 && !strstr(line, " (deleted)")) {
		/* through the task's root: its mount namespace is its own */
		snprintf(file, sizeof(file), "/proc/%d/root%.*s", (int)pid,
			 (int)strcspn(line, "\n"), line);
		cgs_symtab_load_elf_mapped(&ps->usyms, file, lo);   /* unreadable: [user] */
	}
}

int cgs_profile_task_symbols(struct cgs_profile_set *ps, pid_t pid)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	cgs_symtab_free(&ps->usyms);
	ps->vdso_lo = ps->vdso_hi = 0;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		map_syms(ps, pid, line);
	fclose(f);
	cgs_symtab_sort(&ps->usyms);
	return ps->usyms.n ? 0 : -ENOENT;
}

/* Kernel symbols, said once when hidden (the tasks' own come with each
 * point: cgs_profile_task_symbols). */
static void load_symbols(struct cgs_profile_set *ps)
{
	int rc;

	/* CGSCALE_KALLSYMS: another kallsyms file, for tests of the
	 * hidden-address path on a machine that shows them */
	const char *ks = getenv("CGSCALE_KALLSYMS") ? getenv("CGSCALE_KALLSYMS") : "/proc/kallsyms";

	if (ps->user_only)
		return;
	rc = cgs_symtab_load_kallsyms(&ps->ksyms, ks);
	if (rc)
		cgs_warn("--profile: cannot read %s (%s): kernel frames stay raw addresses",
			 ks, strerror(-rc));
	else if (ps->ksyms.hidden)
		cgs_warn("--profile: %s shows only zero addresses (kptr_restrict, not root): kernel frames stay raw addresses; run as root or sysctl kernel.kptr_restrict=0",
			 ks);
}

int cgs_profile_setup(struct cgs_profile_set *ps, const char *arg,
		      int64_t interval_ns, char *err, size_t errlen)
{
	double need;
	int rc;

	memset(ps, 0, sizeof(*ps));
	if (!arg)
		return 0;
	rc = parse_rate(ps, arg, err, errlen);
	if (!rc)
		rc = pick_event(ps, err, errlen);
	if (rc)
		return rc;
	ps->on = true;
	/* about 768 bytes a sample, twice the samples of one interval */
	need = (double)ps->hz * ((double)interval_ns / 1e9) * 768 * 2 / 4096;
	for (ps->pages = 8; ps->pages < need && ps->pages < 1024; ps->pages *= 2)
		;
	return 0;
}

void cgs_profile_prepare(struct cgs_profile_set *ps)
{
	if (!ps->on)
		return;
	if (ps->note)
		cgs_warn("%s", ps->note);
	load_symbols(ps);
}

void cgs_profile_set_free(struct cgs_profile_set *ps)
{
	cgs_symtab_free(&ps->ksyms);
	cgs_symtab_free(&ps->usyms);
	free(ps->note);
	memset(ps, 0, sizeof(*ps));
}
