/*
 * engine.c: an Othello engine for Arena's line protocol (docs/engines.md), in C99 with
 * no dependencies beyond the C library.
 *
 * Build:  cc -std=c99 -O2 -Wall -Wextra -o engine engine.c     (or: make)
 * Run:    arena engine --nats nats://127.0.0.1:4222 --name c --game othello -- ./engine
 * Check:  arena check-engine -- ./engine
 *
 * Strategy: a corner when one is legal, otherwise the legal move that turns over the most
 * discs, the first such in the order the bridge listed them. It reads the position in
 * Arena's Othello notation (the board row by row from a1, X black, O white, - empty, then
 * the side to move), so it plays the 8x8, 6x6 and 4x4 boards alike. Should it ever fail to
 * read a position, it still answers with the first legal move.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NAME "corner-greedy-c"
#define VERSION "1.0"

#define MAX_LINE 8192  /* longer than any command the bridge sends for Othello */
#define MAX_SIDE 8
#define MAX_MOVES 64   /* legal moves in one position: at most one per square */
#define MAX_WORDS 512

static char board[MAX_SIDE * MAX_SIDE + 1];
static int side_len; /* n for an n x n board; 0 while no position has been read */
static char to_move; /* 'X' or 'O' */
static char legal[MAX_MOVES][8];
static int nlegal;

/* say writes one line to the bridge and flushes at once: the bridge is waiting for it. */
static void say(const char *line) {
	fputs(line, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

/* split cuts line into words separated by runs of spaces, tabs and line endings. */
static int split(char *line, char **words, int max) {
	int n = 0;
	char *p = line;
	while (n < max) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		words[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* read_position stores "position BOARD SIDE"; on anything malformed it forgets the board. */
static void read_position(char **w, int n) {
	size_t len;
	int k;
	side_len = 0;
	if (n != 3)
		return;
	len = strlen(w[1]);
	for (k = 1; k <= MAX_SIDE; k++)
		if ((size_t)(k * k) == len)
			break;
	if (k > MAX_SIDE || (strcmp(w[2], "X") != 0 && strcmp(w[2], "O") != 0))
		return;
	memcpy(board, w[1], len + 1);
	side_len = k;
	to_move = w[2][0];
}

/* flips counts the discs that placing to_move's disc on square (col, row) turns over. */
static int flips(int col, int row) {
	static const int dirs[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
	char other = to_move == 'X' ? 'O' : 'X';
	int n = side_len, total = 0, d;
	for (d = 0; d < 8; d++) {
		int c = col + dirs[d][0], r = row + dirs[d][1], run = 0;
		while (c >= 0 && c < n && r >= 0 && r < n && board[r * n + c] == other) {
			c += dirs[d][0];
			r += dirs[d][1];
			run++;
		}
		if (run > 0 && c >= 0 && c < n && r >= 0 && r < n && board[r * n + c] == to_move)
			total += run;
	}
	return total;
}

/* score rates a move: corners above everything, then discs turned over; -1 if unreadable. */
static int score(const char *move) {
	int col, row, n = side_len;
	if (n == 0 || !isalpha((unsigned char)move[0]) || !isdigit((unsigned char)move[1]))
		return -1;
	col = tolower((unsigned char)move[0]) - 'a';
	row = 0;
	for (const char *p = move + 1; *p; p++) {
		if (!isdigit((unsigned char)*p) || row > 99)
			return -1;
		row = row * 10 + (*p - '0');
	}
	row--;
	if (col < 0 || col >= n || row < 0 || row >= n)
		return -1;
	if ((col == 0 || col == n - 1) && (row == 0 || row == n - 1))
		return 1000 + flips(col, row);
	return flips(col, row);
}

/* go answers the "go" command: an info line, then the move. */
static void go(void) {
	char out[128];
	int best = 0, best_score = -2, i;
	if (nlegal == 0) {
		say("resign"); /* cannot happen: the bridge always sends at least one legal move */
		return;
	}
	for (i = 0; i < nlegal; i++) {
		int s = score(legal[i]);
		if (s > best_score) {
			best_score = s;
			best = i;
		}
	}
	snprintf(out, sizeof out, "info depth 1 nodes %d score %d pv %s", nlegal,
	         best_score >= 1000 ? best_score - 1000 : best_score < 0 ? 0 : best_score, legal[best]);
	say(out);
	say(legal[best]);
}

int main(void) {
	static char line[MAX_LINE];
	char *w[MAX_WORDS];
	int n, i;

	while (fgets(line, sizeof line, stdin) != NULL) {
		size_t len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			/* An over-long line: drop the rest of it rather than read it as new commands. */
			int ch;
			while ((ch = getchar()) != EOF && ch != '\n')
				;
		}
		n = split(line, w, MAX_WORDS);
		if (n == 0)
			continue;
		if (strcmp(w[0], "arena") == 0) {
			say("ready " NAME " " VERSION);
		} else if (strcmp(w[0], "position") == 0) {
			read_position(w, n);
		} else if (strcmp(w[0], "legal") == 0) {
			nlegal = 0;
			for (i = 1; i < n && nlegal < MAX_MOVES; i++) {
				if (strlen(w[i]) >= sizeof legal[0])
					continue;
				strcpy(legal[nlegal++], w[i]);
			}
		} else if (strcmp(w[0], "go") == 0) {
			go();
		} else if (strcmp(w[0], "gameover") == 0) {
			nlegal = 0;
			side_len = 0;
		} else if (strcmp(w[0], "quit") == 0) {
			break;
		}
		/* newgame, moves, time and unknown lines need no answer. */
	}
	return 0;
}
