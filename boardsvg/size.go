package boardsvg

import (
	"strconv"
	"strings"
)

// writeSize writes the width and height attributes of a picture of viewBox
// w x h drawn size pixels wide (nothing for size <= 0), each after a space.
func writeSize(b *strings.Builder, size, w, h int) {
	if size <= 0 {
		return
	}
	var buf [20]byte
	b.WriteString(` width="`)
	b.Write(strconv.AppendInt(buf[:0], int64(size), 10))
	b.WriteString(`" height="`)
	b.Write(strconv.AppendInt(buf[:0], int64((size*h+w/2)/w), 10))
	b.WriteString(`"`)
}
