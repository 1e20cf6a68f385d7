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
#include <stdint.h>

#include "runner/core/topo.h"

/* Load @desc (NULL: this machine, narrowed to the CPUs this process may
 * use; an existing file or a name ending in .xml: lstopo XML; else a
 * synthetic description). 0, or -EINVAL/-ENOENT
 * with a one-line message that names the problem and the fix. */
int cgs_topo_load_desc(struct cgs_topo *topo, const char *desc, char *err,
		       size_t errlen);

/*
 * The size bound of a described machine (topo_size.c), checked on its
 * text before hwloc builds it: at most CGS_TOPO_MAX_PUS PUs (NR_CPUS of
 * a MAXSMP kernel, the most any Linux is built for) and at most
 * CGS_TOPO_MAX_ARITY objects under one parent (hwloc's synthetic build
 * compares each object with its siblings, one bit per PU each time); an
 * XML file of at most CGS_TOPO_MAX_XML bytes. Beyond: exit 2, the limit
 * named. Below, the work is hwloc's build and linear passes of ours.
 */
#define CGS_TOPO_MAX_PUS 8192
#define CGS_TOPO_MAX_ARITY 1024
#define CGS_TOPO_MAX_XML (64 << 20)

/*
 * The nesting of an XML file is bounded too: hwloc's XML import recurses
 * once per nested element, so 20,000 nested objects overflow an 8 MiB
 * stack (SIGSEGV in libhwloc; 5,000 do not). lstopo writes a machine
 * 10 to 20 deep (topology, Machine, Package, Die, Groups, L3 to L1i,
 * Core, PU, info; or a chain of PCI bridges): 256 is ten times what a
 * real one needs, and far from the stack's end.
 */
#define CGS_TOPO_MAX_XML_DEPTH 256

/* How deep the elements of an XML text nest, read in pieces of any size:
 * start tags add one, end tags take one off; empty-element tags
 * (<x/>), processing instructions (<?...?>), comments, CDATA and
 * declarations count nothing, and '>' in a quoted attribute value does
 * not end its tag. Zero it, feed it every piece, read @max. */
struct cgs_xml_depth {
	int state;
	char quote, prev;
	unsigned run, brackets;
	uint64_t depth, max;
};
void cgs_xml_depth_feed(struct cgs_xml_depth *x, const char *s, size_t n);

/* The PUs a synthetic description makes and its largest count ("pack:2
 * core:56 pu:2": 224 and 56). 0, or -EINVAL when it cannot be read so. */
int cgs_topo_synth_size(const char *desc, uint64_t *pus, uint64_t *widest);
/* The PUs of an lstopo XML file (its type="PU" objects); -EFBIG beyond
 * CGS_TOPO_MAX_XML, -E2BIG nested deeper than CGS_TOPO_MAX_XML_DEPTH.
 * 0 or -errno with @err. */
int cgs_topo_xml_size(const char *path, uint64_t *pus, char *err, size_t errlen);
/* 0, or -E2BIG with @err naming the limit @desc is beyond. */
int cgs_topo_size_check(const char *desc, uint64_t pus, uint64_t widest,
			char *err, size_t errlen);

/* Refuse real tasks on a topology that is not this machine's (from
 * --topology, or HWLOC_SYNTHETIC/HWLOC_XMLFILE in the environment).
 * 0 or -EINVAL with the message. */
int cgs_topo_check_real(const struct cgs_topo *topo, const char *desc,
			char *err, size_t errlen);

#endif
