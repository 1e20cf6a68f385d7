/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_file.c - a result file's bytes to the model: read the file whole,
 * parse it with json-c (depth-limited), and tell a truncated or corrupt
 * file, text after the end, or JSON that is no result (null, a number)
 * apart, each in one line; results/model/read.c then reads the fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "results/model/result.h"

int res_read_buf(const char *name, const char *buf, size_t len,
		 struct res_file *f, char *err, size_t errlen)
{
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL;
	char inner[400];
	enum json_tokener_error e;
	size_t end;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (len >= INT_MAX) {
		snprintf(err, errlen, "%s: too large for a result file", name);
		return -EFBIG;
	}
	tok = json_tokener_new_ex(RES_MAX_DEPTH);
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, buf, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* a bare number has no end until the text ends: say that it did */
	if (!root && e == json_tokener_continue) {
		root = json_tokener_parse_ex(tok, "", 1);
		if (root || json_tokener_get_error(tok) == json_tokener_success)
			e = json_tokener_success;
	}
	if (!root && e == json_tokener_success) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: not a cgscale result (the JSON is null)", name);
		goto out;
	}
	if (!root || e != json_tokener_success ||
	    end < len - (len && buf[len - 1] == '\n')) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: not valid JSON (%s at byte %zu); the file is truncated or corrupt",
			 name, e == json_tokener_continue ? "unexpected end"
			 : e == json_tokener_success ? "text after the end"
			 : json_tokener_error_desc(e),
			 end);
		goto out;
	}
	rc = res_from_json(root, f, inner, sizeof(inner));
	if (rc) {
		snprintf(err, errlen, "%s: %s", name, inner);
		res_file_free(f);
	}
out:
	json_object_put(root);
	json_tokener_free(tok);
	return rc;
}

int res_read_file(const char *path, struct res_file *f, char *err,
		  size_t errlen)
{
	char *buf = NULL;
	struct stat st;
	int fd, rc = 0;
	size_t len = 0;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size >= INT_MAX) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file of sensible size", path);
		goto out;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += n;
	}
	rc = res_read_buf(path, buf, len, f, err, errlen);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}
