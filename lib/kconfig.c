/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconfig.c - read a kernel .config (plain or gzip'd, as /proc/config.gz)
 * and keep its hash and the options that matter for mm and cgroup costs
 * (kconfig.h). Knobs: the prefix and debug tables below.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/kconfig.h"
#include "lib/macros.h"

#define KCONFIG_MAX (16u << 20)

/* Families whose every option is kept (after "CONFIG_"). */
static const char *const kc_prefix[] = {
	"PREEMPT", "MEMCG", "CGROUP", "TRANSPARENT_HUGEPAGE", "NUMA",
	"LRU_GEN", "SLUB", "HZ", "SLAB", "SCHED_MC", "SCHED_SMT",
	"ZSWAP", "ZONE_DEVICE", "HUGETLB", "KSM", "MITIGATION", "CPU_MITIGATIONS",
	"TICK_CPU_ACCOUNTING", "VIRT_CPU_ACCOUNTING", "PER_VMA_LOCK",
	"KFENCE",      /* a low-overhead sampler Debian enables on purpose: kept, not debug */
};

/* The options 6.9 renamed (x86's mitigations under MITIGATION_, and
 * SPECULATION_MITIGATIONS as CPU_MITIGATIONS): an older config's are
 * kept under the new names, so 6.1 against 6.12 compares RETPOLINE with
 * MITIGATION_RETPOLINE instead of showing each absent on one side. */
static const char *const kc_renamed[][2] = {
	{ "CALL_DEPTH_TRACKING", "MITIGATION_CALL_DEPTH_TRACKING" },
	{ "CPU_IBPB_ENTRY", "MITIGATION_IBPB_ENTRY" },
	{ "CPU_IBRS_ENTRY", "MITIGATION_IBRS_ENTRY" },
	{ "CPU_SRSO", "MITIGATION_SRSO" },
	{ "CPU_UNRET_ENTRY", "MITIGATION_UNRET_ENTRY" },
	{ "GDS_FORCE_MITIGATION", "MITIGATION_GDS_FORCE" },
	{ "PAGE_TABLE_ISOLATION", "MITIGATION_PAGE_TABLE_ISOLATION" },
	{ "RETHUNK", "MITIGATION_RETHUNK" },
	{ "RETPOLINE", "MITIGATION_RETPOLINE" },
	{ "SLS", "MITIGATION_SLS" },
	{ "SPECULATION_MITIGATIONS", "CPU_MITIGATIONS" },
};

/* Debug options: kept, "n" when absent, warned on by compare. */
static const char *const kc_debug[] = {
	"DEBUG_VM", "DEBUG_VM_PGFLAGS", "DEBUG_VM_RB", "DEBUG_PAGEALLOC",
	"KASAN", "KCSAN", "KMSAN", "LOCKDEP", "PROVE_LOCKING", "LOCK_STAT",
	"DEBUG_LOCK_ALLOC", "DEBUG_SPINLOCK", "DEBUG_MUTEXES", "DEBUG_ATOMIC_SLEEP",
	"DEBUG_OBJECTS", "DEBUG_KMEMLEAK", "PAGE_OWNER", "SLUB_DEBUG_ON",
	"PAGE_POISONING", "UBSAN", "KCOV", "DEBUG_LIST",
	"PROVE_RCU", "DEBUG_PREEMPT", "PAGE_EXTENSION",
};

/* Not debug options, but recorded "n" when absent too, so that a kernel
 * without them differs from one with them. */
static const char *const kc_always[] = {
	"PREEMPT_RT", "PREEMPT", "PREEMPT_NONE", "PREEMPT_VOLUNTARY", "PREEMPT_DYNAMIC",
	"TRANSPARENT_HUGEPAGE", "NUMA", "NUMA_BALANCING", "MEMCG", "LRU_GEN",
	"PER_VMA_LOCK",     /* what matters most for page-fault scaling (6.4) */
};

/* @name under its name since 6.9 (kc_renamed), else itself. */
static const char *kc_current(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(kc_renamed); i++)
		if (!strcmp(name, kc_renamed[i][0]))
			return kc_renamed[i][1];
	return name;
}

bool cgs_kconfig_is_debug(const char *name)
{
	if (!strncmp(name, "CONFIG_", 7))
		name += 7;
	for (size_t i = 0; i < ARRAY_SIZE(kc_debug); i++)
		if (!strcmp(name, kc_debug[i]))
			return true;
	return false;
}

static bool kc_wanted(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(kc_prefix); i++)
		if (!strncmp(name, kc_prefix[i], strlen(kc_prefix[i])))
			return true;
	return cgs_kconfig_is_debug(name);
}

/* One line: "CONFIG_X=v" or "# CONFIG_X is not set"; the name (after
 * CONFIG_) into @name and the value into @val, else false. */
static bool kc_line(const char *l, size_t n, char *name, size_t nlen,
		    char *val, size_t vlen)
{
	const char *eq;
	size_t k;

	if (n > 9 && !strncmp(l, "# CONFIG_", 9)) {
		const char *tail = memmem(l, n, " is not set", 11);

		if (!tail || (size_t)(tail - l) - 9 >= nlen)
			return false;
		k = (size_t)(tail - l) - 9;
		memcpy(name, l + 9, k);
		name[k] = 0;
		snprintf(val, vlen, "n");
		return true;
	}
	if (n < 8 || strncmp(l, "CONFIG_", 7) || !(eq = memchr(l, '=', n)))
		return false;
	k = (size_t)(eq - l) - 7;
	if (k >= nlen)
		return false;
	memcpy(name, l + 7, k);
	name[k] = 0;
	k = n - (size_t)(eq + 1 - l);
	if (k >= 2 && eq[1] == '"' && eq[k] == '"') {
		eq++;
		k -= 2;
	}
	snprintf(val, vlen, "%.*s", (int)(k < vlen ? k : vlen - 1), eq + 1);
	return true;
}

struct json_object *cgs_kconfig_parse(const char *text, size_t len,
				      const char *source)
{
	struct json_object *o = json_object_new_object();
	struct json_object *opts = json_object_new_object();
	uint64_t h = 0xcbf29ce484222325ull;
	char hash[32], name[128], val[256];
	size_t at = 0;

	if (!o || !opts) {
		json_object_put(o);
		json_object_put(opts);
		return NULL;
	}
	while (at < len) {
		const char *l = text + at, *nl = memchr(l, '\n', len - at);
		size_t n = nl ? (size_t)(nl - l) : len - at;

		at += n + 1;
		while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
			n--;
		if (!kc_line(l, n, name, sizeof(name), val, sizeof(val)))
			continue;
		if (strcmp(val, "n"))   /* what the kernel has: the set lines */
			for (size_t i = 0; i < n; i++)
				h = (h ^ (unsigned char)l[i]) * 0x100000001b3ull;
		if (kc_wanted(kc_current(name))) {
			char key[160];

			snprintf(key, sizeof(key), "CONFIG_%s", kc_current(name));
			json_object_object_add(opts, key, json_object_new_string(val));
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(kc_debug) + ARRAY_SIZE(kc_always); i++) {
		char key[160];

		snprintf(key, sizeof(key), "CONFIG_%s", i < ARRAY_SIZE(kc_debug) ? kc_debug[i] :
			 kc_always[i - ARRAY_SIZE(kc_debug)]);
		if (!json_object_object_get_ex(opts, key, NULL))
			json_object_object_add(opts, key, json_object_new_string("n"));
	}
	snprintf(hash, sizeof(hash), "fnv1a64:%016" PRIx64, h);
	json_object_object_add(o, "source", source ? json_object_new_string(source) : NULL);
	json_object_object_add(o, "hash", json_object_new_string(hash));
	json_object_object_add(o, "options", opts);
	return o;
}

/* Read all of @fd into *@text. 0 or -errno. */
static int read_all(int fd, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1), *nb;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	while ((r = read(fd, buf + n, cap - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || n + (size_t)r >= KCONFIG_MAX) {
			free(buf);
			return r < 0 ? -errno : -EFBIG;
		}
		n += (size_t)r;
		if (n == cap) {
			nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}

/* gzip -dc <@fd into *@text. */
static int gunzip(int fd, char **text, size_t *len)
{
	int p[2], status, rc;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		dup2(fd, 0);
		dup2(p[1], 1);
		execlp("gzip", "gzip", "-dc", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	rc = pid < 0 ? -errno : read_all(p[0], text, len);
	close(p[0]);
	if (pid > 0 && (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			WEXITSTATUS(status))) {
		if (!rc)
			free(*text);
		rc = rc ? rc : -EIO;
	}
	return rc;
}

int cgs_kconfig_read(const char *path, char **text, size_t *len)
{
	unsigned char magic[2] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	if (pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		rc = gunzip(fd, text, len);
	else
		rc = read_all(fd, text, len);
	close(fd);
	return rc;
}

struct json_object *cgs_kconfig_running(const char *release)
{
	char boot[512], *text = NULL;
	const char *src = "/proc/config.gz";
	struct json_object *o;
	size_t len = 0;
	int rc = cgs_kconfig_read(src, &text, &len), rc2 = 0;

	snprintf(boot, sizeof(boot), "/boot/config-%s", release ? release : "");
	if (rc) {
		src = boot;
		rc2 = cgs_kconfig_read(src, &text, &len);
	}
	if (!rc || !rc2) {
		o = cgs_kconfig_parse(text, len, src);
		free(text);
		return o;
	}
	o = json_object_new_object();
	json_object_object_add(o, "source", NULL);
	json_object_object_add(o, "unreadable", json_object_new_string(
		rc == -ENOENT && rc2 == -ENOENT ?
		"no /proc/config.gz (CONFIG_IKCONFIG_PROC) and no /boot/config-RELEASE" :
		"/proc/config.gz and /boot/config-RELEASE cannot be read"));
	return o;
}
