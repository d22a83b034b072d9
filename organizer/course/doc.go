// Package course sets up a course competition: from a roster of students it makes one
// credentials file per student, a spectator's for the web page, the host's and the
// teacher's, a ladder (stored in the referee's database, so that the referee starts it by
// itself), the ladder's file, and a README with the students' steps.
//
// The teacher then starts the referee and the host and shares the page's URL; see
// docs/course.md.
package course
