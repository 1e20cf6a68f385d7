/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - run the fuzz harness over files given on the command line,
 * for machines without clang's libFuzzer: built with gcc and the
 * sanitizers, it replays the committed corpus as a regression test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long len;

		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET)) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 2;
		}
		buf = malloc(len + 1);
		if (!buf || fread(buf, 1, len, f) != (size_t)len) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
	}
	printf("replay: %d inputs, no crash\n", argc - 1);
	return 0;
}
