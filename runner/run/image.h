/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image.h - the program the workers exec for the tasks (image.c).
 */
#ifndef CGS_RUN_IMAGE_H
#define CGS_RUN_IMAGE_H

#include <stddef.h>

enum cgs_task_process { CGS_TASKS_PLAIN, CGS_TASKS_RUNNER };

extern const char *const cgs_task_process_names[];  /* NULL-terminated */

/*
 * The plain image for --task-process @choice into @path (PATH_MAX), or ""
 * with why the tasks run in the runner's own image in @why.
 */
void cgs_image_find(int choice, char *path, size_t plen, char *why, size_t wlen);

#endif
