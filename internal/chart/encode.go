package chart

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Drawer is a figure that draws itself on a canvas.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Encode renders fig as PNG (PixelSize) and SVG. Rendering is
// deterministic: the same figure gives the same bytes. A panic inside the
// plotting library is returned as an error.
func Encode(fig Drawer) (pngData, svgData []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("render figure: %v", r)
		}
	}()
	img := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI))
	fig.Draw(draw.New(img))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&pb); err != nil {
		return nil, nil, fmt.Errorf("encode png: %w", err)
	}
	sv := vgsvg.New(Width, Height)
	fig.Draw(draw.New(sv))
	var sb bytes.Buffer
	if _, err := sv.WriteTo(&sb); err != nil {
		return nil, nil, fmt.Errorf("encode svg: %w", err)
	}
	return pb.Bytes(), sb.Bytes(), nil
}
