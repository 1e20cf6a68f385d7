/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_knob.c - what the user may name: cgroup path components
 * ([A-Za-z0-9._-], no "." or ".."), parent paths, and --cgroup-set
 * "LEVEL:KNOB=VALUE" specs, with the cgroup version each knob file exists
 * on, so that a v2 knob on a v1 controller is an error naming both, never
 * dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"
#include "lib/macros.h"

bool cg_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > CG_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			return false;
	return true;
}

int cg_path_check(const char *path, char *out, size_t len, char *err,
		  size_t errlen)
{
	char *copy, *save = NULL;
	size_t used = 0;
	int rc = 0;

	if (!path || !*path)
		return cgs_errf(err, errlen, -EINVAL, "an empty cgroup path; give one as /proc/self/cgroup shows it, e.g. /a/b, or / for the root");
	if (!strncmp(path, "/sys/", 5))
		return cgs_errf(err, errlen, -EINVAL,
			   "'%s' looks like a file system path; give the cgroup path as /proc/self/cgroup shows it, e.g. /a/b (the same in every hierarchy)",
			   path);
	if (strstr(path, "//"))
		return cgs_errf(err, errlen, -EINVAL, "'%s': empty path component", path);
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	out[0] = 0;
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!cg_name_ok(c)) {
			rc = cgs_errf(err, errlen, -EINVAL,
				 "'%s': component '%s' is not a valid cgroup name: use only A-Z a-z 0-9 . _ - (not . or ..), at most %d characters",
				 path, c, CG_NAME_MAX);
			goto out;
		}
		if (used + strlen(c) + 2 > len) {
			rc = cgs_errf(err, errlen, -ENAMETOOLONG, "'%s': path too long", path);
			goto out;
		}
		used += snprintf(out + used, len - used, "/%s", c);
	}
	if (!used)
		snprintf(out, len, "/");
out:
	free(copy);
	return rc;
}

int cg_knob_parse(const char *spec, struct cg_knob *k, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':'), *eq, *dot;
	char *end;
	long level;
	size_t nlen;

	memset(k, 0, sizeof(*k));
	if (!colon || colon == spec)
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-set '%s': expected LEVEL:KNOB=VALUE, e.g. 1:memory.max=512M", spec);
	level = strtol(spec, &end, 10);
	if (end != colon || level < 1 || level > CG_MAX_DEPTH || !isdigit((unsigned char)*spec))
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-set '%s': LEVEL must be 1..%d (1 = the top of our hierarchy)",
			   spec, CG_MAX_DEPTH);
	eq = strchr(colon + 1, '=');
	if (!eq || eq == colon + 1)
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-set '%s': expected LEVEL:KNOB=VALUE, e.g. 1:memory.max=512M", spec);
	nlen = (size_t)(eq - colon - 1);
	if (nlen >= sizeof(k->name))
		return cgs_errf(err, errlen, -EINVAL, "--cgroup-set '%s': knob name too long", spec);
	memcpy(k->name, colon + 1, nlen);
	k->name[nlen] = 0;
	dot = strchr(k->name, '.');
	if (!cg_name_ok(k->name) || !dot || dot == k->name || !dot[1] ||
	    (size_t)(dot - k->name) >= sizeof(k->ctrl))
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-set '%s': '%s' is not a knob: name a controller file, CONTROLLER.FILE, e.g. memory.max or cpu.cfs_quota_us",
			   spec, k->name);
	memcpy(k->ctrl, k->name, (size_t)(dot - k->name));
	if (!strcmp(k->ctrl, "cgroup"))
		return cgs_errf(err, errlen, -EINVAL,
			   "--cgroup-set '%s': cgroup.* files are managed by cgscale; set controller knobs only",
			   spec);
	if (!eq[1])
		return cgs_errf(err, errlen, -EINVAL, "--cgroup-set '%s': empty VALUE", spec);
	if (strlen(eq + 1) >= sizeof(k->value))
		return cgs_errf(err, errlen, -EINVAL, "--cgroup-set '%s': VALUE too long", spec);
	for (const char *c = eq + 1; *c; c++)
		if (!isprint((unsigned char)*c))
			return cgs_errf(err, errlen, -EINVAL,
				   "--cgroup-set '%s': VALUE holds a control character", spec);
	snprintf(k->value, sizeof(k->value), "%s", eq + 1);
	k->level = (unsigned)level;
	return 0;
}

/* Knob files that exist on one version only, with the nearest file of
 * the other version (NULL: none). Beyond the table: v2 file names never
 * hold '_' (memory.numa_stat aside), and some controllers are v1-only. */
static const struct {
	const char *name;
	int version;
	const char *other;
} knobs[] = {
	{ "memory.min", 2, NULL },
	{ "memory.low", 2, "memory.soft_limit_in_bytes (not the same semantics)" },
	{ "memory.high", 2, NULL },
	{ "memory.max", 2, "memory.limit_in_bytes" },
	{ "memory.swap.max", 2, "memory.memsw.limit_in_bytes (memory+swap)" },
	{ "memory.swap.high", 2, NULL },
	{ "memory.zswap.max", 2, NULL },
	{ "memory.oom.group", 2, NULL },
	{ "memory.reclaim", 2, "memory.force_empty" },
	{ "cpu.max", 2, "cpu.cfs_quota_us and cpu.cfs_period_us" },
	{ "cpu.max.burst", 2, "cpu.cfs_burst_us" },
	{ "cpu.weight", 2, "cpu.shares" },
	{ "cpu.weight.nice", 2, "cpu.shares" },
	{ "cpu.idle", 2, NULL },
	{ "cpuset.cpus.partition", 2, "cpuset.cpu_exclusive" },
	{ "cpuset.cpus.exclusive", 2, "cpuset.cpu_exclusive" },
	{ "memory.limit_in_bytes", 1, "memory.max" },
	{ "memory.soft_limit_in_bytes", 1, "memory.low or memory.high" },
	{ "memory.memsw.limit_in_bytes", 1, "memory.swap.max (swap only)" },
	{ "memory.swappiness", 1, NULL },
	{ "memory.force_empty", 1, "memory.reclaim" },
	{ "cpu.shares", 1, "cpu.weight" },
	{ "cpu.cfs_quota_us", 1, "cpu.max" },
	{ "cpu.cfs_period_us", 1, "cpu.max" },
	{ "cpu.cfs_burst_us", 1, "cpu.max.burst" },
	{ "cpuset.cpu_exclusive", 1, "cpuset.cpus.partition" },
};

static const char *const v1_only_ctrls[] = { "blkio", "cpuacct", "net_cls",
	"net_prio", "devices", "freezer", NULL };
static const char *const v2_only_ctrls[] = { "io", "misc", NULL };

int cg_knob_version(const char *name, const char **other)
{
	const char *dot = strchr(name, '.');
	size_t clen = dot ? (size_t)(dot - name) : strlen(name);

	*other = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!strcmp(name, knobs[i].name)) {
			*other = knobs[i].other;
			return knobs[i].version;
		}
	for (unsigned i = 0; v1_only_ctrls[i]; i++)
		if (strlen(v1_only_ctrls[i]) == clen && !strncmp(name, v1_only_ctrls[i], clen))
			return 1;
	for (unsigned i = 0; v2_only_ctrls[i]; i++)
		if (strlen(v2_only_ctrls[i]) == clen && !strncmp(name, v2_only_ctrls[i], clen))
			return 2;
	if (dot && strchr(dot, '_') && strcmp(name, "memory.numa_stat"))
		return 1;
	return 0;
}

int cg_knob_check(const struct cg_layout *l, const struct cg_knob *k,
		  char *err, size_t errlen)
{
	int h = cg_layout_find(l, k->ctrl);
	const char *other;
	int want = cg_knob_version(k->name, &other);

	if (h < 0) {
		for (unsigned i = 0; i < l->n; i++)
			if (l->h[i].version == 2)
				return cgs_errf(err, errlen, -ENODEV,
					   "%s needs the %s controller, which is neither a v1 hierarchy here nor listed in %s/cgroup.controllers",
					   k->name, k->ctrl, l->h[i].mount);
		return cgs_errf(err, errlen, -ENODEV,
			   "%s needs the %s controller, which is not mounted here",
			   k->name, k->ctrl);
	}
	if (want && want != l->h[h].version && other)
		return cgs_errf(err, errlen, -EINVAL,
			   "%s needs cgroup v%d; this system mounts %s on v%d (the nearest v%d knob: %s)",
			   k->name, want, k->ctrl, l->h[h].version,
			   l->h[h].version, other);
	if (want && want != l->h[h].version)
		return cgs_errf(err, errlen, -EINVAL,
			   "%s needs cgroup v%d; this system mounts %s on v%d",
			   k->name, want, k->ctrl, l->h[h].version);
	return 0;
}
