/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo_desc.h - --topology: plan for a machine described rather than
 * this one, as an hwloc synthetic description ("pack:2 numa:2 l3:1
 * core:56 pu:2") or an XML file written by `lstopo --of xml` on the box.
 * Such a topology is for --dry-run and `cgroup show`: real tasks run only
 * on this machine's own.
 */
#ifndef CGS_TOPO_DESC_H
#define CGS_TOPO_DESC_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/core/topo.h"

/* Load @desc (NULL: this machine, narrowed to the CPUs this process may
 * use; an existing file or a name ending in .xml: lstopo XML; else a
 * synthetic description). 0, or -EINVAL/-ENOENT
 * with a one-line message that names the problem and the fix. */
int cgs_topo_load_desc(struct cgs_topo *topo, const char *desc, char *err,
		       size_t errlen);

/* Refuse real tasks on a topology that is not this machine's (from
 * --topology, or HWLOC_SYNTHETIC/HWLOC_XMLFILE in the environment).
 * 0 or -EINVAL with the message. */
int cgs_topo_check_real(const struct cgs_topo *topo, const char *desc,
			char *err, size_t errlen);

#endif
