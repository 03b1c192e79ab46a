/* SPDX-License-Identifier: MIT */
#ifndef SF_TRACE_FILE_H
#define SF_TRACE_FILE_H

#include "sf-config.h"
#include "sf-scenario.h"

/*
 * Trace files and options for the tools that replay them
 * (stillframe-replay, stillframectl timeline).  Errors go to standard
 * error; the core stays free of file I/O.
 */

/* Reads the trace at `path` ("-": standard input) and hands each event
 * to `emit`, in order.  A line that does not parse, a missing header or
 * an event `emit` refuses stops it with "PATH:LINE: what" on standard
 * error (`prog` prefixes errors that have no line).  Returns false then. */
bool
sf_trace_read_file(const char *prog, const char *path,
		   sf_scenario_emit_t emit, void *data);

/* Sets one option given as KEY=VALUE (a weston.ini key, stillframe(7));
 * on error, says what is wrong in `err`. */
bool
sf_trace_config_option(struct sf_config *config, const char *assignment,
		       char *err, size_t err_size);

#endif /* SF_TRACE_FILE_H */
