/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freeze.c - frozen cgroups (freeze.h): the mounts come from
 * /proc/self/mountinfo, the task's cgroups from /proc/PID/cgroup; the
 * cgroup that froze a task is found by walking up from its own.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/freeze.h"
#include "lib/util.h"

/* Mount point of the v1 hierarchy holding @ctrl, or of cgroup2 (NULL). */
static int cg_mount(const char *ctrl, char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc && fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], fstype[64], opts[1024], *dash = strstr(line, " - ");
		char *tok, *save;

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (!ctrl && !strcmp(fstype, "cgroup2"))
			rc = 0;
		for (tok = strtok_r(opts, ",", &save); ctrl && tok && rc;
		     tok = strtok_r(NULL, ",", &save))
			if (!strcmp(fstype, "cgroup") && !strcmp(tok, ctrl))
				rc = 0;
		if (!rc)
			snprintf(buf, len, "%s", mnt);
	}
	fclose(f);
	return rc;
}

/* Walk up from @dir to @top: the first with @file reading @val. */
static bool walk_up(char *dir, const char *top, const char *file,
		    const char *val)
{
	for (;;) {
		char path[PATH_MAX + 32], v[64], *slash;

		snprintf(path, sizeof(path), "%s/%s", dir, file);
		if (!cgs_read_line(path, v, sizeof(v)) && !strcmp(v, val))
			return true;
		if (strlen(dir) <= strlen(top) || !(slash = strrchr(dir, '/')))
			return false;
		*slash = 0;
	}
}

static int frozen_v1(const char *rel, char *where, size_t len)
{
	char top[PATH_MAX], dir[PATH_MAX + PATH_MAX], path[PATH_MAX * 2 + 32], st[64];

	if (cg_mount("freezer", top, sizeof(top)))
		return 0;
	snprintf(dir, sizeof(dir), "%s%s", top, strcmp(rel, "/") ? rel : "");
	snprintf(path, sizeof(path), "%s/freezer.state", dir);
	if (cgs_read_line(path, st, sizeof(st)) ||
	    (strcmp(st, "FROZEN") && strcmp(st, "FREEZING")))
		return 0;
	snprintf(where, len, "%s", dir);
	if (walk_up(dir, top, "freezer.self_freezing", "1"))
		snprintf(where, len, "%s", dir);
	return 1;
}

static int frozen_v2(const char *rel, char *where, size_t len)
{
	char top[PATH_MAX], dir[PATH_MAX + PATH_MAX], path[PATH_MAX * 2 + 32], ev[256];

	if (cg_mount(NULL, top, sizeof(top)))
		return 0;
	snprintf(dir, sizeof(dir), "%s%s", top, strcmp(rel, "/") ? rel : "");
	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	if (cgs_read_file(path, ev, sizeof(ev)) || !strstr(ev, "frozen 1"))
		return 0;
	snprintf(where, len, "%s", dir);
	if (walk_up(dir, top, "cgroup.freeze", "1"))
		snprintf(where, len, "%s", dir);
	return 1;
}

int cgs_frozen(pid_t pid, char *where, size_t len)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (!rc && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char *tok, *save;

		if (!c2)
			continue;
		*c1 = 0;
		*c2 = 0;
		c2[1 + strcspn(c2 + 1, "\n")] = 0;
		if (!strcmp(line, "0") && c1[1] == 0)
			rc = frozen_v2(c2 + 1, where, len);
		for (tok = strtok_r(c1 + 1, ",", &save); tok && !rc;
		     tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "freezer"))
				rc = frozen_v1(c2 + 1, where, len);
	}
	fclose(f);
	return rc;
}

int cgs_thaw(const char *where)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/freezer.state", where);
	if (!access(path, F_OK))
		return cgs_write_str(path, "THAWED");
	snprintf(path, sizeof(path), "%s/cgroup.freeze", where);
	return cgs_write_str(path, "0");
}
