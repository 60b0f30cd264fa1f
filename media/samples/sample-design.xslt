<?xml version="1.0" encoding="UTF-8"?>
<!-- A sample e-invoice design for Nilvera's template studio (written for this extension; MIT, like it).
     Like the designs in use it declares XSLT 2.0 but uses XSLT 1.0 only, plus a character map, a named
     decimal format, an inline script and a data: image. -->
<xsl:stylesheet version="2.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
    xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
    exclude-result-prefixes="cac cbc">
  <xsl:output method="html" version="4.0" encoding="UTF-8" indent="no" use-character-maps="tr"/>
  <xsl:character-map name="tr">
    <xsl:output-character character="&#160;" string="&amp;nbsp;"/>
  </xsl:character-map>
  <xsl:decimal-format name="tr" decimal-separator="," grouping-separator="." NaN="-"/>

  <xsl:variable name="doc" select="/*"/>
  <xsl:variable name="kind" select="local-name(/*)"/>

  <xsl:template name="money">
    <xsl:param name="node"/>
    <xsl:value-of select="format-number(number($node), '###.##0,00', 'tr')"/>
    <xsl:text>&#160;</xsl:text>
    <xsl:value-of select="$node/@currencyID"/>
  </xsl:template>

  <xsl:template name="party">
    <xsl:param name="party"/>
    <xsl:param name="title"/>
    <div class="party">
      <h3><xsl:value-of select="$title"/></h3>
      <div class="name">
        <xsl:value-of select="$party/cac:PartyName/cbc:Name"/>
        <xsl:if test="not($party/cac:PartyName/cbc:Name)">
          <xsl:value-of select="concat($party/cac:Person/cbc:FirstName, ' ', $party/cac:Person/cbc:FamilyName)"/>
        </xsl:if>
      </div>
      <div><xsl:value-of select="$party/cac:PostalAddress/cbc:StreetName"/></div>
      <div>
        <xsl:value-of select="$party/cac:PostalAddress/cbc:CitySubdivisionName"/>
        <xsl:text> / </xsl:text>
        <xsl:value-of select="$party/cac:PostalAddress/cbc:CityName"/>
        <xsl:text> </xsl:text>
        <xsl:value-of select="$party/cac:PostalAddress/cac:Country/cbc:Name"/>
      </div>
      <xsl:if test="$party/cac:PartyTaxScheme/cac:TaxScheme/cbc:Name">
        <div>Vergi Dairesi: <xsl:value-of select="$party/cac:PartyTaxScheme/cac:TaxScheme/cbc:Name"/></div>
      </xsl:if>
      <xsl:for-each select="$party/cac:PartyIdentification/cbc:ID">
        <div class="id"><xsl:value-of select="@schemeID"/>: <xsl:value-of select="."/></div>
      </xsl:for-each>
    </div>
  </xsl:template>

  <xsl:template match="/">
    <html>
      <head>
        <meta charset="UTF-8"/>
        <title><xsl:value-of select="$doc/cbc:ID"/></title>
        <style>
          body { font-family: Arial, Helvetica, sans-serif; font-size: 12px; color: #222; background: #fff; margin: 16px; }
          .head { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 2px solid #1f5fbf; padding-bottom: 8px; }
          .parties { display: flex; gap: 24px; margin: 12px 0; }
          .party { flex: 1; border: 1px solid #ccd; padding: 8px; border-radius: 4px; }
          .party h3 { margin: 0 0 4px; font-size: 12px; color: #1f5fbf; text-transform: uppercase; }
          .party .name { font-weight: bold; font-size: 13px; }
          table.lines { width: 100%; border-collapse: collapse; margin-top: 8px; }
          table.lines th { background: #1f5fbf; color: #fff; text-align: left; padding: 4px; }
          table.lines td { border-bottom: 1px solid #dde; padding: 4px; }
          td.num, th.num { text-align: right; }
          table.totals { margin-left: auto; margin-top: 12px; border-collapse: collapse; }
          table.totals td { padding: 3px 8px; }
          table.totals tr.payable td { font-weight: bold; font-size: 14px; border-top: 2px solid #1f5fbf; }
          .meta td { padding: 1px 6px; }
          .notes { margin-top: 12px; color: #444; }
          #mark { border: 1px solid #ccd; }
        </style>
      </head>
      <body>
        <div class="head">
          <div>
            <img alt="logo" src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIxMjAiIGhlaWdodD0iMzYiIHZpZXdCb3g9IjAgMCAxMjAgMzYiPjxyZWN0IHdpZHRoPSIzNiIgaGVpZ2h0PSIzNiIgcng9IjYiIGZpbGw9IiMxZjVmYmYiLz48cGF0aCBkPSJNOSAyN1Y5aDRsMTAgMTJWOWg0djE4aC00TDEzIDE1djEyeiIgZmlsbD0iI2ZmZiIvPjx0ZXh0IHg9IjQ0IiB5PSIyNCIgZm9udC1mYW1pbHk9InNhbnMtc2VyaWYiIGZvbnQtc2l6ZT0iMTUiIGZvbnQtd2VpZ2h0PSI3MDAiIGZpbGw9IiMxZjVmYmYiPsOWUk5FSzwvdGV4dD48L3N2Zz4="/>
            <h2 class="title">
              <xsl:choose>
                <xsl:when test="$kind = 'DespatchAdvice'">e-İRSALİYE</xsl:when>
                <xsl:when test="$kind = 'CreditNote'">e-MÜSTAHSİL MAKBUZU</xsl:when>
                <xsl:when test="$doc/cbc:ProfileID = 'EARSIVFATURA'">e-ARŞİV FATURA</xsl:when>
                <xsl:otherwise>e-FATURA</xsl:otherwise>
              </xsl:choose>
            </h2>
          </div>
          <table class="meta">
            <tr><td>Senaryo</td><td><xsl:value-of select="$doc/cbc:ProfileID"/></td></tr>
            <tr><td>Tip</td><td><xsl:value-of select="$doc/cbc:InvoiceTypeCode | $doc/cbc:DespatchAdviceTypeCode | $doc/cbc:CreditNoteTypeCode"/></td></tr>
            <tr><td>No</td><td class="docid"><xsl:value-of select="$doc/cbc:ID"/></td></tr>
            <tr><td>Tarih</td><td><xsl:value-of select="$doc/cbc:IssueDate"/></td></tr>
            <tr><td>ETTN</td><td><xsl:value-of select="$doc/cbc:UUID"/></td></tr>
          </table>
          <canvas id="mark" width="64" height="64" data-uuid="{$doc/cbc:UUID}"></canvas>
        </div>
        <div class="parties">
          <xsl:call-template name="party">
            <xsl:with-param name="party" select="$doc/cac:AccountingSupplierParty/cac:Party | $doc/cac:DespatchSupplierParty/cac:Party"/>
            <xsl:with-param name="title">Satıcı</xsl:with-param>
          </xsl:call-template>
          <xsl:call-template name="party">
            <xsl:with-param name="party" select="$doc/cac:AccountingCustomerParty/cac:Party | $doc/cac:DeliveryCustomerParty/cac:Party"/>
            <xsl:with-param name="title">Alıcı</xsl:with-param>
          </xsl:call-template>
          <xsl:if test="$doc/cac:BuyerCustomerParty">
            <xsl:call-template name="party">
              <xsl:with-param name="party" select="$doc/cac:BuyerCustomerParty/cac:Party"/>
              <xsl:with-param name="title">Son Alıcı</xsl:with-param>
            </xsl:call-template>
          </xsl:if>
        </div>
        <table class="lines">
          <tr><th>#</th><th>Mal / Hizmet</th><th class="num">Miktar</th><th class="num">Birim Fiyat</th><th class="num">KDV %</th><th class="num">Tutar</th></tr>
          <xsl:for-each select="$doc/cac:InvoiceLine | $doc/cac:CreditNoteLine | $doc/cac:DespatchLine">
            <tr class="line">
              <td><xsl:value-of select="cbc:ID"/></td>
              <td><xsl:value-of select="cac:Item/cbc:Name"/></td>
              <td class="num">
                <xsl:value-of select="format-number(number(cbc:InvoicedQuantity | cbc:CreditedQuantity | cbc:DeliveredQuantity), '###.##0,###', 'tr')"/>
                <xsl:text> </xsl:text>
                <xsl:value-of select="(cbc:InvoicedQuantity | cbc:CreditedQuantity | cbc:DeliveredQuantity)/@unitCode"/>
              </td>
              <td class="num"><xsl:if test="cac:Price"><xsl:call-template name="money"><xsl:with-param name="node" select="cac:Price/cbc:PriceAmount"/></xsl:call-template></xsl:if></td>
              <td class="num"><xsl:value-of select="cac:TaxTotal/cac:TaxSubtotal/cbc:Percent"/></td>
              <td class="num"><xsl:if test="cbc:LineExtensionAmount"><xsl:call-template name="money"><xsl:with-param name="node" select="cbc:LineExtensionAmount"/></xsl:call-template></xsl:if></td>
            </tr>
          </xsl:for-each>
        </table>
        <xsl:if test="$doc/cac:LegalMonetaryTotal">
          <table class="totals">
            <tr><td>Mal Hizmet Toplam Tutarı</td><td class="num"><xsl:call-template name="money"><xsl:with-param name="node" select="$doc/cac:LegalMonetaryTotal/cbc:LineExtensionAmount"/></xsl:call-template></td></tr>
            <xsl:for-each select="$doc/cac:TaxTotal/cac:TaxSubtotal">
              <tr><td>Hesaplanan <xsl:value-of select="cac:TaxCategory/cac:TaxScheme/cbc:Name"/> (%<xsl:value-of select="cbc:Percent"/>)</td><td class="num"><xsl:call-template name="money"><xsl:with-param name="node" select="cbc:TaxAmount"/></xsl:call-template></td></tr>
            </xsl:for-each>
            <xsl:for-each select="$doc/cac:WithholdingTaxTotal/cac:TaxSubtotal">
              <tr><td>Tevkifat / Stopaj (%<xsl:value-of select="cbc:Percent"/>)</td><td class="num"><xsl:call-template name="money"><xsl:with-param name="node" select="cbc:TaxAmount"/></xsl:call-template></td></tr>
            </xsl:for-each>
            <tr><td>Vergiler Dahil Toplam</td><td class="num"><xsl:call-template name="money"><xsl:with-param name="node" select="$doc/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount"/></xsl:call-template></td></tr>
            <tr class="payable"><td>Ödenecek Tutar</td><td class="num"><xsl:call-template name="money"><xsl:with-param name="node" select="$doc/cac:LegalMonetaryTotal/cbc:PayableAmount"/></xsl:call-template></td></tr>
          </table>
        </xsl:if>
        <div class="notes">
          <xsl:for-each select="$doc/cbc:Note"><div><xsl:value-of select="."/></div></xsl:for-each>
        </div>
        <script type="text/javascript">
          // Draws a mark from the ETTN on the canvas, as the real designs draw their QR code.
          (function () {
            var canvas = document.getElementById('mark');
            if (!canvas || !canvas.getContext) return;
            var uuid = canvas.getAttribute('data-uuid') || '';
            var ctx = canvas.getContext('2d');
            ctx.fillStyle = '#1f5fbf';
            for (var i = 0; i &lt; uuid.length &amp;&amp; i &lt; 64; i++) {
              var c = uuid.charCodeAt(i);
              if (c % 2 === 0) ctx.fillRect((i % 8) * 8, Math.floor(i / 8) * 8, 8, 8);
            }
            canvas.setAttribute('data-drawn', 'yes');
          })();
        </script>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
