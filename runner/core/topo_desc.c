/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo_desc.c - load the machine --topology describes (within the size
 * bound of topo_desc.h), or this one narrowed to the CPUs the run may use,
 * and refuse to run real tasks on a described one (see topo_desc.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runner/core/topo_desc.h"
#include "lib/util.h"

static bool looks_like_file(const char *desc)
{
	size_t n = strlen(desc);
	struct stat st;

	return stat(desc, &st) == 0 || strchr(desc, '/') ||
	       (n > 4 && !strcmp(desc + n - 4, ".xml"));
}

/* What hwloc built is within the bound too (a text the size check could
 * not read, an XML file whose PUs it miscounted). */
static int built_size(struct cgs_topo *topo, const char *desc, char *err,
		      size_t errlen)
{
	int rc = cgs_topo_size_check(desc, topo->pus, 0, err, errlen);

	if (rc)
		cgs_topo_free(topo);
	return rc;
}

int cgs_topo_load_desc(struct cgs_topo *topo, const char *desc, char *err,
		       size_t errlen)
{
	uint64_t pus = 0, widest = 0;
	struct stat st;
	int rc;

	if (!desc) {
		/* hwloc reads $HWLOC_XMLFILE itself: bounded as --topology is,
		 * since its recursive parser crashes on a deep one */
		const char *x = getenv("HWLOC_XMLFILE");

		if (x && *x && ((rc = cgs_topo_xml_size(x, &pus, err, errlen)) ||
				(rc = cgs_topo_size_check(x, pus, 0, err, errlen)))) {
			char why[512];

			snprintf(why, sizeof(why), "%s", err);
			return cgs_errf(err, errlen, rc, "HWLOC_XMLFILE: %s; unset it to read this machine",
					why);
		}
		rc = cgs_topo_load(topo, NULL);
		if (!rc && topo->thissystem) {
			rc = cgs_topo_limit_self(topo);
			if (rc)
				cgs_topo_free(topo);
		}
		return rc ? cgs_errf(err, errlen, rc, "cannot read this machine's topology with hwloc (and the CPUs this process may use): %s",
				     strerror(-rc)) : 0;
	}
	if (!*desc)
		return cgs_errf(err, errlen, -EINVAL,
				"--topology is empty; give an hwloc synthetic description such as \"pack:2 numa:2 l3:1 core:56 pu:2\" or an lstopo XML file");
	if (looks_like_file(desc)) {
		if (stat(desc, &st) || !S_ISREG(st.st_mode))
			return cgs_errf(err, errlen, -ENOENT,
					"--topology %s: no such file; write one on the box with 'lstopo --of xml FILE'",
					desc);
		if ((rc = cgs_topo_xml_size(desc, &pus, err, errlen)) ||
		    (rc = cgs_topo_size_check(desc, pus, 0, err, errlen)))
			return rc;
		rc = cgs_topo_load_from(topo, NULL, desc);
		return rc ? cgs_errf(err, errlen, -EINVAL,
				     "--topology %s: hwloc cannot read it as topology XML (%s); write it with 'lstopo --of xml FILE'",
				     desc, strerror(-rc)) : built_size(topo, desc, err, errlen);
	}
	/* not sized here: hwloc says what is wrong with it (and the PUs
	 * are checked once it is built) */
	if (!cgs_topo_synth_size(desc, &pus, &widest) &&
	    (rc = cgs_topo_size_check(desc, pus, widest, err, errlen)))
		return rc;
	rc = cgs_topo_load_from(topo, desc, NULL);
	return rc ? cgs_errf(err, errlen, -EINVAL,
			     "--topology '%s' is not an hwloc synthetic description (e.g. \"pack:2 numa:2 l3:1 core:56 pu:2\"; see hwloc-gather-topology(1), or test it with 'lstopo -i \"...\"') nor an existing XML file",
			     desc) : built_size(topo, desc, err, errlen);
}

int cgs_topo_check_real(const struct cgs_topo *topo, const char *desc,
			char *err, size_t errlen)
{
	if (topo->thissystem)
		return 0;
	if (desc)
		return cgs_errf(err, errlen, -EINVAL,
				"--topology describes another machine: add --dry-run to see the plan there (or use 'cgscale cgroup show'); real tasks run only on this machine's own topology (leave out --topology)");
	return cgs_errf(err, errlen, -EINVAL,
			"the topology hwloc reads is not this machine's (HWLOC_SYNTHETIC or HWLOC_XMLFILE is set): unset it to run real tasks, or add --dry-run to see the plan");
}
