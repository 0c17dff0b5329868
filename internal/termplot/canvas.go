// Package termplot draws charts in a terminal with Unicode braille: each
// character cell holds a 2×4 grid of dots, so a 60×15 cell chart has 120×60
// points. Line charts take several series, each in its own colour with a
// legend, and label the value and time axes; Sparkline draws a one-line
// summary with block characters.
package termplot

// canvas is a grid of braille cells; dots are addressed in pixels with
// (0,0) at the top left.
type canvas struct {
	w, h  int     // cells
	dots  []uint8 // braille dot bits per cell
	color []int8  // series index that last drew in the cell; -1 none
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, h: h, dots: make([]uint8, w*h), color: make([]int8, w*h)}
	for i := range c.color {
		c.color[i] = -1
	}
	return c
}

// brailleBit maps a dot's position within its cell (x 0..1, y 0..3) to
// its bit in the Unicode braille pattern block (U+2800).
var brailleBit = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// set turns on pixel (x, y) for series s; pixels off the canvas are ignored.
func (c *canvas) set(x, y int, s int) {
	if x < 0 || y < 0 || x >= c.w*2 || y >= c.h*4 {
		return
	}
	i := (y/4)*c.w + x/2
	c.dots[i] |= brailleBit[y%4][x%2]
	c.color[i] = int8(s)
}

// line draws from (x0,y0) to (x1,y1) with Bresenham's algorithm.
func (c *canvas) line(x0, y0, x1, y1, s int) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	err := dx + dy
	for {
		c.set(x0, y0, s)
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * err; e2 >= dy {
			err += dy
			x0 += sx
		} else {
			err += dx
			y0 += sy
		}
	}
}

// cell returns the rune and series of cell (col, row).
func (c *canvas) cell(col, row int) (rune, int) {
	i := row*c.w + col
	if c.dots[i] == 0 {
		return ' ', -1
	}
	return rune(0x2800 + int(c.dots[i])), int(c.color[i])
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
