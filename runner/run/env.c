/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env.c - capture the environment a run depends on, as LKP's runtest and
 * mmtests do: kernel release and command line, THP, ASLR, autogroup,
 * NUMA balancing, perf_event_paranoid, CPU model, hwloc topology, the
 * tmpdir's filesystem, and the cpufreq governor (set and restored).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runner/run/env.h"
#include "lib/freshtmp.h"
#include "lib/util.h"


static void add_file(struct json_object *o, const char *key, const char *path)
{
	char buf[4096];

	if (cgs_read_line(path, buf, sizeof(buf)) == 0)
		json_object_object_add(o, key, json_object_new_string(buf));
	else
		json_object_object_add(o, key, NULL);
}

struct json_object *cgs_env_kernel(void)
{
	struct json_object *k = json_object_new_object();
	struct json_object *thp = json_object_new_object();
	struct utsname u = { 0 };

	if (uname(&u) == 0) {
		json_object_object_add(k, "release", json_object_new_string(u.release));
		json_object_object_add(k, "version", json_object_new_string(u.version));
		json_object_object_add(k, "machine", json_object_new_string(u.machine));
	}
	add_file(k, "cmdline", "/proc/cmdline");
	add_file(thp, "enabled", "/sys/kernel/mm/transparent_hugepage/enabled");
	add_file(thp, "defrag", "/sys/kernel/mm/transparent_hugepage/defrag");
	add_file(thp, "shmem_enabled",
		 "/sys/kernel/mm/transparent_hugepage/shmem_enabled");
	json_object_object_add(k, "thp", thp);
	add_file(k, "randomize_va_space", "/proc/sys/kernel/randomize_va_space");
	add_file(k, "sched_autogroup_enabled",
		 "/proc/sys/kernel/sched_autogroup_enabled");
	add_file(k, "numa_balancing", "/proc/sys/kernel/numa_balancing");
	add_file(k, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
	cgs_env_kernel_mm(k, u.release);
	return k;
}

/* "model name" from /proc/cpuinfo (or "cpu" on POWER). */
static struct json_object *cpu_model(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	struct json_object *v = NULL;

	while (f && !v && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || (strncmp(line, "model name", 10) &&
			       strncmp(line, "cpu\t", 4)))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = 0;
		v = json_object_new_string(colon);
	}
	if (f)
		fclose(f);
	return v;
}

struct json_object *cgs_env_machine(const struct cgs_topo *topo)
{
	struct json_object *m = json_object_new_object();
	char host[256];

	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = 0;
		json_object_object_add(m, "hostname", json_object_new_string(host));
	}
	json_object_object_add(m, "cpu_model", cpu_model());
	json_object_object_add(m, "online_cpus",
			       json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_object_add(m, "topology", cgs_topo_json(topo));
	/* outside "topology", which compare holds critical: how many loads
	 * it took is how the box behaved, not what it is */
	json_object_object_add(m, "topology_loads", json_object_new_int((int)topo->loads));
	json_object_object_add(m, "allowed", cgs_topo_allowed_json(topo));
	return m;
}

/* Undo the octal escapes (\040 for space) of /proc/self/mountinfo. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

int cgs_fs_of(const char *path, char *type, size_t tlen, char *opts,
	      size_t olen)
{
	char real[PATH_MAX], line[4096];
	size_t best = 0;
	FILE *f;

	if (!realpath(path, real))
		return -errno;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	snprintf(type, tlen, "unknown");
	if (olen)
		opts[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], mopts[1024], fstype[64], sopts[1024];
		char *dash = strstr(line, " - ");
		size_t len;

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s %1023s", mnt, mopts) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, sopts) != 2)
			continue;
		unescape(mnt);
		len = strlen(mnt);
		if (strncmp(real, mnt, len) ||
		    (real[len] && real[len] != '/' && len > 1) || len < best)
			continue;
		best = len;
		snprintf(type, tlen, "%s", fstype);
		snprintf(opts, olen, "%s,%s", mopts, sopts);
	}
	fclose(f);
	return 0;
}

void cgs_default_tmpdir(char *out, size_t len, char *note, size_t nlen)
{
	const char *env = getenv("TMPDIR");

	note[0] = 0;
	if (cgs_is_tmpfs(env)) {
		snprintf(out, len, "%s", env);
	} else if (cgs_is_tmpfs("/dev/shm")) {
		snprintf(out, len, "/dev/shm");
	} else {
		snprintf(out, len, "%s", env && *env ? env : "/tmp");
		snprintf(note, nlen,
			 "no tmpfs found (neither $TMPDIR nor /dev/shm); files go to %s, so fallocate2 and page_fault2/3 measure its filesystem; pass --tmpdir to choose",
			 out);
	}
}

static int gov_add(struct cgs_governor *g, const char *path)
{
	char cur[64], **np, **no;

	if (cgs_read_line(path, cur, sizeof(cur)))
		return 0;
	np = realloc(g->path, (g->n + 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	g->path = np;
	no = realloc(g->old, (g->n + 1) * sizeof(*no));
	if (!no)
		return -ENOMEM;
	g->old = no;
	g->path[g->n] = strdup(path);
	g->old[g->n] = strdup(cur);
	if (!g->path[g->n] || !g->old[g->n])
		return -ENOMEM;
	g->n++;
	return 0;
}

int cgs_governor_apply(struct cgs_governor *g, const char *want)
{
	const char *base = "/sys/devices/system/cpu";
	DIR *d = opendir(base);
	struct dirent *e;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	g->requested = want ? strdup(want) : NULL;
	while (d && !rc && (e = readdir(d))) {
		char path[PATH_MAX];

		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' ||
		    e->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpufreq/scaling_governor",
			 base, e->d_name);
		rc = gov_add(g, path);
	}
	if (d)
		closedir(d);
	if (rc)
		return rc;
	if (!g->n) {
		g->status = cgs_fmt("no cpufreq driver: %s/cpu*/cpufreq is missing%s",
				    base, want ? "; --governor ignored" : "");
		return 0;
	}
	if (!want) {
		g->status = cgs_fmt("left as found");
		return 0;
	}
	for (unsigned i = 0; i < g->n; i++) {
		rc = cgs_write_str(g->path[i], want);
		if (rc) {
			g->status = cgs_fmt("setting %s to %s failed: %s",
					    g->path[i], want, strerror(-rc));
			g->changed = true;
			cgs_governor_restore(g);
			return rc;
		}
	}
	g->changed = true;
	g->status = cgs_fmt("set to %s on %u CPUs for the run, restored after",
			    want, g->n);
	return 0;
}

void cgs_governor_restore(struct cgs_governor *g)
{
	for (unsigned i = 0; g->changed && i < g->n; i++)
		cgs_write_str(g->path[i], g->old[i]);
	g->changed = false;
}

struct json_object *cgs_governor_json(const struct cgs_governor *g)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "requested",
			       g->requested ? json_object_new_string(g->requested) : NULL);
	json_object_object_add(o, "before",
			       g->n ? json_object_new_string(g->old[0]) : NULL);
	json_object_object_add(o, "cpus_with_cpufreq", json_object_new_int((int)g->n));
	json_object_object_add(o, "status",
			       g->status ? json_object_new_string(g->status) : NULL);
	return o;
}

void cgs_governor_free(struct cgs_governor *g)
{
	for (unsigned i = 0; i < g->n; i++) {
		free(g->path[i]);
		free(g->old[i]);
	}
	free(g->path);
	free(g->old);
	free(g->requested);
	free(g->status);
	memset(g, 0, sizeof(*g));
}
