/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_topo_size.c - the size bound of --topology (runner/core/
 * topo_size.c): the PUs and the widest level read from a synthetic
 * description agree with what hwloc builds, attributes and memory
 * children counting for nothing; beyond CGS_TOPO_MAX_PUS or
 * CGS_TOPO_MAX_ARITY the description is refused before hwloc builds it,
 * and an XML file is refused by its PU objects and by how deep its
 * elements nest (CGS_TOPO_MAX_XML_DEPTH), counted in pieces of any size.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/core/topo_desc.h"

static void t_synth_size(void **state)
{
	static const struct { const char *d; uint64_t pus, widest; } ok[] = {
		{ "pack:2 numa:2 l3:1 core:56 pu:2", 448, 56 },
		{ "2 2 2", 8, 2 },
		{ "pack:2 [numa] core:4 pu:2", 16, 4 },
		{ "pack:2 [numa(memory=1GB)] l3:1 core:4 pu:2", 16, 4 },
		{ "pack:2(indexes=0,1) core:2 pu:2", 8, 2 },
		{ "Package:2 Core:3 PU:2", 12, 3 },
		{ "core:3 pu:2(indexes=0,1,2,3,4,5)", 6, 3 },
		{ "  pack:64   core:64 pu:64 ", 262144, 64 },
	};
	static const char *const unread[] = { "", "pack:x", "pack:2 [numa", "core:2(x", "pu" };
	uint64_t pus, widest;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (cgs_topo_synth_size(ok[i].d, &pus, &widest))
			fail_msg("'%s' not sized", ok[i].d);
		if (pus != ok[i].pus || widest != ok[i].widest)
			fail_msg("'%s': %llu PUs, widest %llu", ok[i].d,
				 (unsigned long long)pus, (unsigned long long)widest);
	}
	for (size_t i = 0; i < sizeof(unread) / sizeof(unread[0]); i++)
		assert_int_equal(cgs_topo_synth_size(unread[i], &pus, &widest), -EINVAL);
	/* the count saturates instead of wrapping */
	assert_int_equal(cgs_topo_synth_size("pu:4294967296 pu:4294967296 pu:4294967296",
					     &pus, &widest), 0);
	assert_true(pus == UINT64_MAX);
}

/* What the text says is what hwloc builds, for the small ones. */
static void t_agrees_with_hwloc(void **state)
{
	static const char *const d[] = {
		"pack:2 numa:2 l3:1 core:5 pu:2", "pack:2 [numa] core:4 pu:2",
		"2 3 2", "pack:3 l2:2 l1:2 pu:1",
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		struct cgs_topo t;
		uint64_t pus, widest;

		assert_int_equal(cgs_topo_synth_size(d[i], &pus, &widest), 0);
		if (cgs_topo_load_desc(&t, d[i], err, sizeof(err)))
			fail_msg("%s: %s", d[i], err);
		assert_int_equal(t.pus, pus);
		cgs_topo_free(&t);
	}
}

static void t_refused(void **state)
{
	struct cgs_topo t;
	char err[512] = "", xml[] = "/tmp/cgs-topo-size-XXXXXX";
	int fd, rc;

	(void)state;
	assert_int_equal(cgs_topo_load_desc(&t, "pack:8 core:1024 pu:2", err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "16384 PUs"));
	assert_non_null(strstr(err, "at most 8192"));
	assert_int_equal(cgs_topo_load_desc(&t, "core:2048 pu:1", err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "2048 objects under one parent; at most 1024"));
	/* at the bounds it loads */
	assert_int_equal(cgs_topo_load_desc(&t, "pack:2 core:1024 pu:4", err, sizeof(err)), 0);
	assert_int_equal(t.pus, CGS_TOPO_MAX_PUS);
	cgs_topo_free(&t);
	/* an XML file by its PU objects, before hwloc reads it */
	fd = mkstemp(xml);
	assert_true(fd >= 0);
	for (int i = 0; i <= CGS_TOPO_MAX_PUS; i++)
		assert_true(dprintf(fd, "<object type=\"PU\" os_index=\"%d\"/>\n", i) > 0);
	close(fd);
	rc = cgs_topo_load_desc(&t, xml, err, sizeof(err));
	unlink(xml);    /* before any assert, so a failing run leaves nothing */
	assert_int_equal(rc, -E2BIG);
	assert_non_null(strstr(err, "8193 PUs"));
}

/* @text's depth read whole, then in pieces of @step bytes. */
static uint64_t depth_in(const char *text, size_t step)
{
	struct cgs_xml_depth x = { 0 };
	size_t n = strlen(text);

	for (size_t i = 0; i < n; i += step)
		cgs_xml_depth_feed(&x, text + i, n - i < step ? n - i : step);
	return x.max;
}

static void t_xml_depth(void **state)
{
	static const struct { const char *x; uint64_t max; } c[] = {
		{ "<a><b/><c></c></a>", 2 },
		{ "<?xml version=\"1.0\"?>\n<!DOCTYPE t SYSTEM \"hwloc2.dtd\">\n"
		  "<t><o a=\"x>y\" b='/>'><i n=\"/\"/></o></t>", 2 },
		{ "<a x='/>' y=\"/\"><b></b></a>", 2 },  /* no end in quotes */
		{ "<a><!-- <b><c> -> --></a>", 1 },
		{ "<a><![CDATA[<b><c>]>]]></a>", 1 },
		{ "<!DOCTYPE t [<!ELEMENT t ANY><!ATTLIST t a CDATA '>'>]><t><u></u></t>", 2 },
		{ "<?pi a>b?><a/>", 0 },
		{ "<a\n  x=\"1\"\n/>", 0 },
		{ "<a>x &gt; y</a><b><c><d></d></c></b>", 3 },
		{ "</a></b><c>", 1 },       /* stray end tags go no lower than 0 */
	};
	char deep[300 * 7 + 1];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (size_t step = 1; step <= 4; step++)
			if (depth_in(c[i].x, step) != c[i].max)
				fail_msg("'%s' in pieces of %zu: %llu deep, expected %llu", c[i].x,
					 step, (unsigned long long)depth_in(c[i].x, step),
					 (unsigned long long)c[i].max);
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(deep + n, "<g>");
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(deep + n, "</g>");
	assert_int_equal(depth_in(deep, 4096), 300);
	assert_int_equal(depth_in(deep, 3), 300);
}

/* An XML file nested CGS_TOPO_MAX_XML_DEPTH deep @over: read, or
 * refused with -E2BIG naming its depth. */
static void xml_nested(int over)
{
	char err[512] = "", xml[] = "/tmp/cgs-topo-depth-XXXXXX";
	int fd = mkstemp(xml), depth = CGS_TOPO_MAX_XML_DEPTH + over;
	uint64_t pus;
	int rc;

	assert_true(fd >= 0);
	assert_true(dprintf(fd, "<?xml version=\"1.0\"?>\n") > 0);
	for (int i = 0; i < depth; i++)
		assert_true(dprintf(fd, "<object type=\"Group\" name=\"a>b\">\n") > 0);
	assert_true(dprintf(fd, "<object type=\"PU\"/><!-- <x><y> -->\n") > 0);
	for (int i = 0; i < depth; i++)
		assert_true(dprintf(fd, "</object>\n") > 0);
	close(fd);
	rc = cgs_topo_xml_size(xml, &pus, err, sizeof(err));
	unlink(xml);    /* before any assert, so a failing run leaves nothing */
	if (!over) {
		assert_int_equal(rc, 0);
		assert_int_equal(pus, 1);
	} else {
		assert_int_equal(rc, -E2BIG);
		if (!strstr(err, "nests XML elements 257 deep, more than the 256"))
			fail_msg("%s", err);
	}
}

static void t_xml_too_deep(void **state)
{
	(void)state;
	xml_nested(0);
	xml_nested(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_synth_size),
		cmocka_unit_test(t_agrees_with_hwloc),
		cmocka_unit_test(t_refused),
		cmocka_unit_test(t_xml_depth),
		cmocka_unit_test(t_xml_too_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
