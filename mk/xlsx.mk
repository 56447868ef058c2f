# XLSX renderer (render/xlsx.c)
LIBS += -lxlsxwriter
