/* SPDX-License-Identifier: MIT */
/*
 * stillframectl timeline TRACE -o FILE.svg: replays a trace through the
 * policy core (tools/sf-replay.h) and draws what it decided over time as
 * a self-contained SVG 1.1 picture.  Needs no compositor.
 */
#ifndef STILLFRAMECTL_TIMELINE_H
#define STILLFRAMECTL_TIMELINE_H

/* "timeline", from argv[0] on (the command's name). */
int
sf_ctl_timeline_main(int argc, char **argv);

#endif
