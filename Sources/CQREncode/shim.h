// libqrencode (Debian's libqrencode-dev): the QR code of the link that brings another device
// into a shopper's cart. Only QuickCart's Core/Sessions/QRCode.swift imports it.
#include <qrencode.h>
