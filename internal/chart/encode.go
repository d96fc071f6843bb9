package chart

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Drawer is a figure that draws itself on a canvas.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Sized is a figure of its own size (others are Width × Height).
type Sized interface {
	Size() (w, h vg.Length)
}

// SizeOf returns the size fig is rendered at.
func SizeOf(fig Drawer) (w, h vg.Length) {
	if s, ok := fig.(Sized); ok {
		return s.Size()
	}
	return Width, Height
}

// Encode renders fig as PNG (PixelSize, or its own size) and SVG. Rendering is
// deterministic: the same figure gives the same bytes. A panic inside the
// plotting library is returned as an error.
func Encode(fig Drawer) (pngData, svgData []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("render figure: %v", r)
		}
	}()
	w, h := SizeOf(fig)
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
	fig.Draw(draw.New(img))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&pb); err != nil {
		return nil, nil, fmt.Errorf("encode png: %w", err)
	}
	sv := vgsvg.New(w, h)
	fig.Draw(draw.New(sv))
	var sb bytes.Buffer
	if _, err := sv.WriteTo(&sb); err != nil {
		return nil, nil, fmt.Errorf("encode svg: %w", err)
	}
	return pb.Bytes(), sb.Bytes(), nil
}
