/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ab_json.c - what `cgscale ab` (runner/cmd/ab.c) records: each boot's
 * result with the VM and its side added, and ab.json (the VM, each side's
 * path, kind, command line and config, every boot and how the run ended),
 * with what is missing or never ran said at the end.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/util.h"
#include "runner/ab/ab.h"

struct json_object *ab_vm_json(const struct ab_state *st)
{
	const struct cgs_vm_spec *s = &st->spec;
	struct json_object *o = json_object_new_object();
	char smp[128];

	snprintf(smp, sizeof(smp), "sockets=%u,cores=%u,threads=%u", s->sockets,
		 s->nodes_per_socket * s->cores, s->threads);
	json_object_object_add(o, "accel", json_object_new_string(s->kvm ? "kvm" : "tcg"));
	if (!s->kvm)
		json_object_object_add(o, "warning", json_object_new_string(TCG_WARNING));
	json_object_object_add(o, "cpus", json_object_new_int64(s->cpus));
	json_object_object_add(o, "smp", json_object_new_string(smp));
	json_object_object_add(o, "numa_nodes", json_object_new_int((int)(s->sockets * s->nodes_per_socket)));
	json_object_object_add(o, "topology", s->topology ? json_object_new_string(s->topology) : NULL);
	json_object_object_add(o, "mem_bytes", json_object_new_int64(s->mem));
	json_object_object_add(o, "cgroup", json_object_new_string(s->cgroup));
	json_object_object_add(o, "cmdline", s->cmdline ? json_object_new_string(s->cmdline) : NULL);
	json_object_object_add(o, "boots", json_object_new_int64(st->cli->boots));
	return o;
}

/* Each side: the path given, what it is, its own command line and the
 * config given (a package's own is named by the package). */
struct json_object *ab_kernels_json(const struct ab_state *st)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < 2; i++) {
		const struct cgs_vm_kernel *k = &st->k[i];
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "path", json_object_new_string(k->path));
		json_object_object_add(e, "kind", json_object_new_string(k->kind ? k->kind : ""));
		json_object_object_add(e, "cmdline", k->cmdline ? json_object_new_string(k->cmdline) : NULL);
		json_object_object_add(e, "config", k->config && !k->tmpdir ?
				       json_object_new_string(k->config) : NULL);
		json_object_object_add(o, k->label, e);
	}
	return o;
}

/* The result block of the reply @reply, with the VM and the boot added,
 * written to @out. 0, or -ENODATA when the guest sent none. */
int ab_take_result(const struct ab_state *st, const char *reply, char *out,
		   const struct cgs_vm_kernel *k, unsigned idx, char *unmet, size_t ulen)
{
	struct json_object *root = cgs_vm_reply_result(reply), *env, *ab;
	const char *note;
	bool fell;
	int rc = -ENODATA;

	if (!root)
		return rc;
	note = json_object_get_string(cgs_jget(cgs_jget(cgs_jget(root, "environment"), "cgroup"), "note"));
	fell = note != NULL;
	if (fell) {
		snprintf(unmet, ulen, "%s", note);
		snprintf(out, PATH_MAX, "%s/logs/%s-%u.json", st->cli->output, k->label, idx);
	}
	if (!json_object_object_get_ex(root, "environment", &env)) {
		env = json_object_new_object();
		json_object_object_add(root, "environment", env);
	}
	json_object_object_add(env, "vm", ab_vm_json(st));
	ab = json_object_new_object();
	json_object_object_add(ab, "kernel", json_object_new_string(k->label));
	json_object_object_add(ab, "path", json_object_new_string(k->path));
	json_object_object_add(ab, "config", k->config && !k->tmpdir ? json_object_new_string(k->config) : NULL);
	json_object_object_add(ab, "cmdline", k->cmdline ? json_object_new_string(k->cmdline) : NULL);
	json_object_object_add(ab, "aa", json_object_new_boolean(st->cli->aa));
	json_object_object_add(ab, "boot", json_object_new_int((int)idx));
	json_object_object_add(ab, "order", json_object_new_int((int)st->nth));
	json_object_object_add(root, "ab", ab);
	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
	char werr[256];

	rc = cgs_write_atomic(out, s, strlen(s), werr, sizeof(werr));
	json_object_put(root);
	return rc ? rc : fell ? -EPROTO : 0;
}

/* The boots asked for that have no result: said, each with why, and
 * (after an interrupt) the ones that never ran. How many. */
static unsigned say_missing(const struct ab_state *st, const char *path, int sig)
{
	unsigned missing = 0, ran = (unsigned)json_object_array_length(st->boots);

	for (unsigned i = 0; i < ran; i++) {
		struct json_object *r = NULL, *n = NULL, *why = NULL,
				   *e = json_object_array_get_idx(st->boots, i);

		json_object_object_get_ex(e, "result", &r);
		json_object_object_get_ex(e, "name", &n);
		json_object_object_get_ex(e, "status", &why);
		if (r)
			continue;
		missing++;
		fprintf(stderr, "[ab] missing boot: %s: %s (see %s)\n", json_object_get_string(n),
			json_object_get_string(why), path);
	}
	if (sig && ran < st->total)
		fprintf(stderr, "[ab] interrupted (%s) after %u of %u boots: %u result(s) kept in %s (%s %u, %s %u); %u boot(s) never ran; ab.json says which\n",
			strsignal(sig), ran, st->total, st->got[0] + st->got[1], st->cli->output,
			st->k[0].label, st->got[0], st->k[1].label, st->got[1], st->total - ran);
	return missing + st->total - ran;
}

unsigned ab_summary(struct ab_state *st, int sig)
{
	char path[PATH_MAX], err[512];
	const char *s;

	st->summary = json_object_new_object();
	json_object_object_add(st->summary, "vm", ab_vm_json(st));
	json_object_object_add(st->summary, "kernels", ab_kernels_json(st));
	json_object_object_add(st->summary, "aa", json_object_new_boolean(st->cli->aa));
	json_object_object_add(st->summary, "boots", json_object_get(st->boots));
	json_object_object_add(st->summary, "boots_asked", json_object_new_int((int)st->total));
	json_object_object_add(st->summary, "interrupted", sig ? json_object_new_string(strsignal(sig)) : NULL);
	snprintf(path, sizeof(path), "%s/ab.json", st->cli->output);
	s = json_object_to_json_string_ext(st->summary, JSON_C_TO_STRING_PRETTY);
	if (cgs_write_atomic(path, s, strlen(s), err, sizeof(err)))
		cgs_errs("ab", "%s", err);
	return say_missing(st, path, sig);
}
