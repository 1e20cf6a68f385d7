/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fallback.h - the fallback place of a run's journal: where its points go
 * when the journal beside the output cannot take them (a full or failing
 * disk, the output's directory removed). It is $XDG_STATE_HOME/cgscale,
 * else $HOME/.local/state/cgscale, else /var/tmp/cgscale-<uid>: a directory
 * of the user's own, mode 0700, never reached through a symbolic link at
 * its last component, and refused when another user owns it.
 */
#ifndef CGS_FALLBACK_H
#define CGS_FALLBACK_H

#include <stddef.h>

/* The fallback place's path into @buf, not created. 0 or -ENAMETOOLONG. */
int cgs_fallback_path(char *buf, size_t len);

/* Create the fallback place when it is missing and open it: a directory
 * fd (O_DIRECTORY, O_NOFOLLOW at the last component), its path in @buf,
 * or -errno with @err saying why (-EPERM: another user's; -ELOOP: a
 * symbolic link). */
int cgs_fallback_open(char *buf, size_t len, char *err, size_t errlen);

/* The name there of the journal of the run @id into @output:
 * <output's name without .json>-<the id's first 16 digits>.json.partial
 * (the name cut to fit NAME_MAX). 0, or -EINVAL (no id), -ENAMETOOLONG. */
int cgs_fallback_name(const char *output, const char *id, char *buf, size_t len);

#endif
