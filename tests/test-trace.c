/* SPDX-License-Identifier: MIT */
#include "sf-test.h"
#include "sf-trace.h"

/* Lines in canonical form: parsing then formatting gives them back. */
static const char *const canonical[] = {
	"stillframe-trace 1\n",
	"0 output 1 eDP-1 1920x1080@60000*p 1920x1080@48000s 1280x720@60000\n",
	"0.5 surface 7 1 800x600 0.23 foot\n",
	"12.25 surface 8 1 300x32 0.005\n",
	"13 commit 7 10,20,8x16 #00000000deadbeef\n",
	"13.000001 commit 7 0,0,10x10+-5,3,2x2\n",
	"14 commit 7 -\n",
	"14.5 commit 7 0,0,300x32 #0000000000000011 same\n",
	"14.75 commit 7 10,20,8x16 #00000000deadbeef ink=24\n",
	"15 input pointer\n",
	"15 input key\n",
	"15 input button\n",
	"15 input touch\n",
	"16 hint 7 rate 24000/1001\n",
	"16 hint 7 range 30000-60000\n",
	"16 hint 7 content video\n",
	"16 hint 7 clear\n",
	"17 focus 7\n",
	"18 destroy 7\n",
	"19 inhibit 1 on\n",
	"19 inhibit 1 off\n",
	"20 repaint 1 5\n",
	"21 mode 1 2\n",
	"22 end\n",
};

SF_TEST(round_trip)
{
	for (size_t i = 0; i < SF_ARRAY_LENGTH(canonical); i++) {
		struct sf_trace_event ev;
		char err[128] = "", out[512];

		sf_assert_int_eq(sf_trace_parse_line(canonical[i], &ev, err,
						     sizeof(err)),
				 SF_TRACE_OK);
		sf_trace_format_event(&ev, out, sizeof(out));
		sf_assert_str_eq(out, canonical[i]);
	}
}

SF_TEST(fields)
{
	struct sf_trace_event ev;
	char err[128];

	sf_assert_int_eq(sf_trace_parse_line(canonical[1], &ev, err,
					     sizeof(err)), SF_TRACE_OK);
	sf_assert_int_eq(ev.type, SF_TRACE_OUTPUT);
	sf_assert_int_eq(ev.u.output.n_modes, 3);
	sf_assert_int_eq(ev.u.output.current, 0);
	sf_assert(ev.u.output.modes[0].preferred);
	sf_assert(!ev.u.output.modes[0].seamless);
	sf_assert(ev.u.output.modes[1].seamless);
	sf_assert_int_eq(ev.u.output.modes[2].width, 1280);

	sf_assert_int_eq(sf_trace_parse_line(canonical[5], &ev, err,
					     sizeof(err)), SF_TRACE_OK);
	sf_assert_int_eq(ev.time, SF_MSEC(13) + 1);
	sf_assert_int_eq(ev.u.commit.n_boxes, 2);
	sf_assert_int_eq(ev.u.commit.boxes[1].x1, -5);
	sf_assert_int_eq(ev.u.commit.boxes[1].x2, -3);
	sf_assert(!ev.u.commit.has_hash);

	sf_assert_int_eq(sf_trace_parse_line("1 commit 3 0,0,1x1 #ff", &ev,
					     err, sizeof(err)), SF_TRACE_OK);
	sf_assert(ev.u.commit.has_hash);
	sf_assert_int_eq(ev.u.commit.hash, 255);
	sf_assert(!ev.u.commit.unchanged);

	sf_assert_int_eq(sf_trace_parse_line("1 commit 3 0,0,1x1 same", &ev,
					     err, sizeof(err)), SF_TRACE_OK);
	sf_assert(ev.u.commit.unchanged);
	sf_assert(!ev.u.commit.has_hash);

	sf_assert_int_eq(sf_trace_parse_line("1 commit 3 0,0,1x1 ink=7 #2",
					     &ev, err, sizeof(err)),
			 SF_TRACE_OK);
	sf_assert_int_eq(ev.u.commit.ink, 7);
	sf_assert_int_eq(ev.u.commit.hash, 2);
}

SF_TEST(blank_and_comments)
{
	struct sf_trace_event ev;
	char err[64];

	sf_assert_int_eq(sf_trace_parse_line("", &ev, err, sizeof(err)),
			 SF_TRACE_BLANK);
	sf_assert_int_eq(sf_trace_parse_line("   \n", &ev, err, sizeof(err)),
			 SF_TRACE_BLANK);
	sf_assert_int_eq(sf_trace_parse_line("# a comment", &ev, err,
					     sizeof(err)), SF_TRACE_BLANK);
	/* A comment is a whole line: trailing text is an error. */
	sf_assert_int_eq(sf_trace_parse_line("5 focus 2 # trailing", &ev, err,
					     sizeof(err)), SF_TRACE_ERROR);
}

struct bad_line {
	const char *line;
	const char *message;	/* part of the error */
};

static const struct bad_line bad_lines[] = {
	{ "stillframe-trace 2", "version 2 is not supported" },
	{ "x commit 1 -", "is not a number of milliseconds" },
	{ "1.1234567 commit 1 -", "at most 6 decimals" },
	{ "1 frobnicate 3", "unknown event \"frobnicate\"" },
	{ "1 commit", "missing surface id" },
	{ "1 commit 1 10,20,8", "is not X,Y,WIDTHxHEIGHT" },
	{ "1 commit 1 0,0,1x1 #xyz", "is not #HEX" },
	{ "1 commit 1 0,0,1x1 sane", "neither a hash (#HEX, 1 to 16 digits) nor \"same\"" },
	{ "1 commit 1 0,0,1x1 #00000000000000001", "1 to 16 digits" },
	{ "1 commit 1 0,0,1x1 #1 ink=-3", "\"ink=-3\" is not ink=N" },
	{ "1 commit 1 0,0,1x1 #1 ink=4294967296", "is not ink=N" },
	{ "1 commit 1 0,0,1x1+0,0,1x1+0,0,1x1+0,0,1x1+0,0,1x1+0,0,1x1+"
	  "0,0,1x1+0,0,1x1+0,0,1x1", "more than 8 damage boxes" },
	{ "1 output 1 eDP-1 1920x1080@60000", "no mode is marked current" },
	{ "1 output 1 eDP-1 1920x1080@60000* 1920x1080@30000*",
	  "two modes are marked current" },
	{ "1 output 1 eDP-1 1920x1080@60000*q", "unknown flag 'q'" },
	{ "1 output 1 eDP-1", "has no modes" },
	{ "1 surface 1 1 800x600 1.5", "is not in 0..1" },
	{ "1 input elbow", "is not pointer|key|button|touch" },
	{ "1 hint 1 rate 24/0", "is not NUM/DEN" },
	{ "1 hint 1 range 60000-30000", "MIN <= MAX" },
	{ "1 hint 1 content cat", "is not none|photo|video|game" },
	{ "1 inhibit 1 maybe", "is not on|off" },
	{ "1 focus 1 2", "unexpected text" },
	{ "99999999999999999999 end", "too large" },
};

SF_TEST(errors_say_what_is_wrong)
{
	for (size_t i = 0; i < SF_ARRAY_LENGTH(bad_lines); i++) {
		struct sf_trace_event ev;
		char err[256] = "";

		sf_assert_int_eq(sf_trace_parse_line(bad_lines[i].line, &ev,
						     err, sizeof(err)),
				 SF_TRACE_ERROR);
		sf_assert_str_contains(err, bad_lines[i].message);
	}
}

SF_TEST(format_reports_needed_length)
{
	struct sf_trace_event ev;
	char err[64], small[8];

	sf_assert_int_eq(sf_trace_parse_line(canonical[2], &ev, err,
					     sizeof(err)), SF_TRACE_OK);
	int n = sf_trace_format_event(&ev, small, sizeof(small));
	sf_assert_int_eq(n, (int)strlen(canonical[2]));
	sf_assert_int_eq(strlen(small), sizeof(small) - 1);
}

SF_TEST_MAIN()
