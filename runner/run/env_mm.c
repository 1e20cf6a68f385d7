/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env_mm.c - the part of a result's "kernel" object that says how the
 * kernel was built and set for memory: its configuration (lib/kconfig.c),
 * the THP and khugepaged knobs, the vm.* sysctls that change mm costs,
 * the CPU vulnerabilities and mitigations in force, and the cgroup mount
 * options. What cannot be read is null, and listed in "unreadable".
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/kconfig.h"
#include "lib/macros.h"
#include "lib/util.h"
#include "runner/run/env.h"

#define THP "/sys/kernel/mm/transparent_hugepage/"

static const char *const thp_more[] = {
	"khugepaged/defrag", "khugepaged/max_ptes_none", "khugepaged/max_ptes_swap",
	"khugepaged/pages_to_scan", "khugepaged/scan_sleep_millisecs",
	"use_zero_page",
};

static const char *const vm_sysctls[] = {
	"overcommit_memory", "overcommit_ratio", "swappiness", "zone_reclaim_mode",
	"min_free_kbytes", "watermark_scale_factor", "watermark_boost_factor",
	"dirty_ratio", "dirty_background_ratio", "max_map_count",
	"compaction_proactiveness", "page-cluster", "vfs_cache_pressure",
	"nr_hugepages", "stat_interval", "numa_stat", "percpu_pagelist_high_fraction",
};

/* @path's line under @key of @o; null and a name in @bad when unreadable. */
static void put_file(struct json_object *o, const char *key, const char *path,
		     struct json_object *bad)
{
	char buf[1024];

	if (cgs_read_line(path, buf, sizeof(buf)) == 0) {
		json_object_object_add(o, key, json_object_new_string(buf));
		return;
	}
	json_object_object_add(o, key, NULL);
	json_object_array_add(bad, json_object_new_string(path));
}

static struct json_object *vulnerabilities(struct json_object *bad)
{
	const char *base = "/sys/devices/system/cpu/vulnerabilities";
	struct json_object *o = json_object_new_object();
	DIR *d = opendir(base);
	struct dirent *e;

	if (!d) {
		json_object_array_add(bad, json_object_new_string(base));
		return o;
	}
	while ((e = readdir(d))) {
		char path[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
		put_file(o, e->d_name, path, bad);
	}
	closedir(d);
	return o;
}

/* "fstype mountpoint options" of every cgroup and cgroup2 mount. */
static struct json_object *cgroup_mounts(struct json_object *bad)
{
	struct json_object *a = json_object_new_array();
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];

	if (!f) {
		json_object_array_add(bad, json_object_new_string("/proc/self/mountinfo"));
		return a;
	}
	while (fgets(line, sizeof(line), f)) {
		char mnt[1024], mopts[1024], fstype[64], sopts[1024], buf[3200];
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %1023s %1023s", mnt, mopts) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, sopts) != 2 ||
		    strncmp(fstype, "cgroup", 6))
			continue;
		snprintf(buf, sizeof(buf), "%s %s %s,%s", fstype, mnt, mopts, sopts);
		json_object_array_add(a, json_object_new_string(buf));
	}
	fclose(f);
	return a;
}

void cgs_env_kernel_mm(struct json_object *k, const char *release)
{
	struct json_object *bad = json_object_new_array();
	struct json_object *thp = NULL, *vm = json_object_new_object();
	char path[256];

	if (!json_object_object_get_ex(k, "thp", &thp)) {
		thp = json_object_new_object();
		json_object_object_add(k, "thp", thp);
	}
	for (size_t i = 0; i < ARRAY_SIZE(thp_more); i++) {
		snprintf(path, sizeof(path), THP "%s", thp_more[i]);
		put_file(thp, thp_more[i], path, bad);
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_sysctls); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", vm_sysctls[i]);
		put_file(vm, vm_sysctls[i], path, bad);
	}
	json_object_object_add(k, "vm", vm);
	json_object_object_add(k, "vulnerabilities", vulnerabilities(bad));
	json_object_object_add(k, "cgroup_mounts", cgroup_mounts(bad));
	json_object_object_add(k, "config", cgs_kconfig_running(release));
	json_object_object_add(k, "unreadable", bad);
}
