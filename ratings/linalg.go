package ratings

import "math"

// square is a dense m×m matrix stored row by row. The fit only ever solves symmetric
// positive-definite systems (the negated Hessian of a strictly concave log-likelihood), so a
// Cholesky factorization is all the linear algebra there is.
type square struct {
	m int
	a []float64
}

func newSquare(m int) square { return square{m: m, a: make([]float64, m*m)} }

// add adds v at (i, j) and, off the diagonal, at (j, i); negative indexes are variables held
// fixed by the gauge, so they are skipped here rather than at every call site.
func (s square) add(i, j int, v float64) {
	if i < 0 || j < 0 {
		return
	}
	s.a[i*s.m+j] += v
	if i != j {
		s.a[j*s.m+i] += v
	}
}

func (s square) clear() { clear(s.a) }

// cholesky overwrites the lower triangle of s with L such that s = L·Lᵀ. It reports false
// when s is not numerically positive definite.
func (s square) cholesky() bool {
	m, a := s.m, s.a
	for j := range m {
		d := a[j*m+j]
		rj := a[j*m : j*m+j]
		for _, v := range rj {
			d -= v * v
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*m+j] = d
		for i := j + 1; i < m; i++ {
			ri := a[i*m : i*m+j]
			v := a[i*m+j]
			for k, x := range ri {
				v -= x * rj[k]
			}
			a[i*m+j] = v / d
		}
	}
	return true
}

// solve overwrites b with the solution of L·Lᵀ·x = b, s holding the factor from cholesky.
func (s square) solve(b []float64) {
	m, a := s.m, s.a
	for i := range m {
		v := b[i]
		for k := range i {
			v -= a[i*m+k] * b[k]
		}
		b[i] = v / a[i*m+i]
	}
	for i := m - 1; i >= 0; i-- {
		v := b[i]
		for k := i + 1; k < m; k++ {
			v -= a[k*m+i] * b[k]
		}
		b[i] = v / a[i*m+i]
	}
}

// inverse returns the inverse of the matrix whose Cholesky factor s holds.
func (s square) inverse() square {
	inv := newSquare(s.m)
	col := make([]float64, s.m)
	for j := range s.m {
		clear(col)
		col[j] = 1
		s.solve(col)
		for i, v := range col {
			inv.a[i*s.m+j] = v
		}
	}
	return inv
}

// mul returns x·y for square matrices of the same size.
func mul(x, y square) square {
	m := x.m
	z := newSquare(m)
	for i := range m {
		zi := z.a[i*m : (i+1)*m]
		for k := range m {
			v := x.a[i*m+k]
			if v == 0 {
				continue
			}
			yk := y.a[k*m : (k+1)*m]
			for j, w := range yk {
				zi[j] += v * w
			}
		}
	}
	return z
}
