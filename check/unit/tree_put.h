/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_put.h - unit tests' helper for a made-up file tree (a tracefs, a
 * proc): tree_put(DIR, "a/b/file", text) writes the file, making its
 * folders. Include after <cmocka.h>.
 */
#ifndef CGS_TREE_PUT_H
#define CGS_TREE_PUT_H

#include <stdio.h>
#include <stdlib.h>

static void tree_put(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#endif
